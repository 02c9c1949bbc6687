import type { Plugin, Rollup } from 'vite';

// What every page's first load is made of (decision 0030): React and React Router (one
// `vendor` chunk), the modules the root layout imports statically (one `shell` chunk:
// header, footer, cart and session stores, shared rules) and the modules the pages a shopper
// lands on share with other pages (one `common` chunk: product card, price, pictures, SEO;
// decision 0048). Everything else, the libraries of menus and dialogs included, is left to
// the bundler and loads with its route or on first use. The groups are computed from the
// import graph at build time, not listed by hand, so a module that becomes a dynamic import
// leaves the first load by itself.

const VENDOR = /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser|turbo-stream)[\\/]/;
const ROOT = /[\\/]app[\\/]root\.tsx$/;
/** The shopper's route modules: every route but the back office's. */
const STOREFRONT_ROUTE = /[\\/]app[\\/]routes[\\/](?!admin[\\/])[^\\/]+\.tsx?$/;
/** The pages shoppers arrive on from a search or a link: home, the listings, a product. */
const LANDING_ROUTE = /[\\/]app[\\/]routes[\\/](home|shop|new-arrival|sales|details)\.tsx$/;

/** The modules `from` imports statically, directly or not, short of those in `stop`. */
function reach(ctx: Rollup.PluginContext, from: string, stop: Set<string>): Set<string> {
  const reached = new Set<string>();
  // Static imports only: a dynamic import is exactly what must stay out of the first load.
  const queue = [from];
  while (queue.length) {
    const id = queue.pop() as string;
    if (reached.has(id) || stop.has(id)) continue;
    reached.add(id);
    for (const next of ctx.getModuleInfo(id)?.importedIds ?? []) queue.push(next);
  }
  return reached;
}

export function shellChunks(): { plugin: Plugin; groups: { name: string; test(id: string): boolean }[] } {
  let shell = new Set<string>();
  const common = new Set<string>();
  const plugin: Plugin = {
    name: 'storefront-shell-chunks',
    apply: 'build',
    buildEnd() {
      common.clear();
      const ids = [...this.getModuleIds()];
      const root = ids.find((id) => ROOT.test(id));
      shell = root ? reach(this, root, new Set()) : new Set();
      // A module a landing page shares with another page would be a chunk of its own, one
      // more request (a round trip on a phone) before the page can run: 7 of them on a
      // product page. What only one route uses stays in that route's chunk.
      const users = new Map<string, { routes: number; landing: boolean }>();
      for (const route of ids.filter((id) => STOREFRONT_ROUTE.test(id))) {
        for (const id of reach(this, route, shell)) {
          if (id === route || STOREFRONT_ROUTE.test(id) || VENDOR.test(id)) continue;
          const u = users.get(id) ?? { routes: 0, landing: false };
          u.routes++;
          u.landing ||= LANDING_ROUTE.test(route);
          users.set(id, u);
        }
      }
      for (const [id, u] of users) if (u.landing && u.routes >= 2) common.add(id);
    },
  };
  return {
    plugin,
    groups: [
      { name: 'vendor', test: (id) => VENDOR.test(id) },
      // The root module itself stays its own chunk (React Router loads it as a route).
      {
        name: 'shell',
        test: (id) => shell.has(id) && !/node_modules|[\\/]packages[\\/]shared[\\/]/.test(id) && !ROOT.test(id),
      },
      { name: 'common', test: (id) => common.has(id) },
    ],
  };
}
