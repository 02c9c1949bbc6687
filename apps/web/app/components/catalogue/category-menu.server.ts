import type { TCategory, TPage } from '@storefront/shared';
import { PAGE_SIZE } from '@storefront/shared';
import type { AppLoadContext } from 'react-router';
import { apiJson } from '../../lib/api.server.ts';
import { categoryTree, type MenuCategory } from './category-tree.ts';

export type { MenuCategory } from './category-tree.ts';

/** spec §7: POST /api/categories/search, page size 50, following nextPageToken. */
export async function loadCategoryMenu(context: AppLoadContext): Promise<MenuCategory[]> {
  const all: TCategory[] = [];
  try {
    for (let page = 1; page <= 40; page++) {
      const res = await apiJson<TPage<TCategory>>(context, '/api/categories/search', { method: 'POST', body: { page, size: PAGE_SIZE.category } });
      all.push(...res.list);
      if (!res.nextPageToken) break;
    }
  } catch {
    // The menu is a convenience: a failure shows the page without it rather than an error.
    return [];
  }
  return categoryTree(all);
}
