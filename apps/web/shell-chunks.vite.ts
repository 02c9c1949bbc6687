import type { Plugin } from 'vite';

// What every page's first load is made of (decision 0030): React and React Router (one
// `vendor` chunk) and the modules the root layout imports statically (one `shell` chunk:
// header, footer, cart and session stores, shared rules). Everything else, the libraries of
// menus and dialogs included, is left to the bundler and loads with its route or on first
// use. The shell is computed from the import graph at build time, not listed by hand, so
// a module that becomes a dynamic import leaves the first load by itself.

const VENDOR = /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser|turbo-stream)[\\/]/;

export function shellChunks(): { plugin: Plugin; groups: { name: string; test(id: string): boolean }[] } {
  const shell = new Set<string>();
  const plugin: Plugin = {
    name: 'storefront-shell-chunks',
    apply: 'build',
    buildEnd() {
      shell.clear();
      const root = [...this.getModuleIds()].find((id) => /[\\/]app[\\/]root\.tsx$/.test(id));
      if (!root) return;
      // Static imports only: a dynamic import is exactly what must stay out of the shell.
      const queue = [root];
      while (queue.length) {
        const id = queue.pop() as string;
        if (shell.has(id)) continue;
        shell.add(id);
        for (const next of this.getModuleInfo(id)?.importedIds ?? []) if (!shell.has(next)) queue.push(next);
      }
    },
  };
  return {
    plugin,
    groups: [
      { name: 'vendor', test: (id) => VENDOR.test(id) },
      // The root module itself stays its own chunk (React Router loads it as a route).
      {
        name: 'shell',
        test: (id) => shell.has(id) && !/node_modules|[\\/]packages[\\/]shared[\\/]/.test(id) && !/[\\/]app[\\/]root\.tsx$/.test(id),
      },
    ],
  };
}
