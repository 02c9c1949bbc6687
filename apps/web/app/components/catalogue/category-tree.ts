import type { TCategory } from '@storefront/shared';

/** The category tree for the navigation's menu. */
export type MenuCategory = { id: number; name: string; slug: string; img: string | null; children: MenuCategory[] };

/** Builds the tree from the flat list of POST /api/categories/search, each level in its order. */
export function categoryTree(list: Pick<TCategory, 'id' | 'name' | 'slug' | 'img' | 'parentId' | 'sortOrder'>[]): MenuCategory[] {
  const nodes = new Map<number, MenuCategory & { sortOrder: number }>();
  for (const c of list) nodes.set(c.id, { id: c.id, name: c.name, slug: c.slug, img: c.img, children: [], sortOrder: c.sortOrder });
  const roots: (MenuCategory & { sortOrder: number })[] = [];
  for (const c of list) {
    const node = nodes.get(c.id)!;
    const parent = c.parentId == null ? undefined : nodes.get(c.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const strip = (ns: (MenuCategory & { sortOrder: number })[]): MenuCategory[] =>
    ns
      .sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id)
      .map(({ sortOrder: _s, children, ...rest }) => ({ ...rest, children: strip(children as (MenuCategory & { sortOrder: number })[]) }));
  return strip(roots);
}
