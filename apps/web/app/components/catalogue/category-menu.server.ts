import type { AppLoadContext } from 'react-router';
import { categoryTree, type MenuCategory } from './category-tree.ts';

export type { MenuCategory } from './category-tree.ts';

/** spec §7: every category of POST /api/categories/search, as the menu's tree. */
export async function loadCategoryMenu(context: AppLoadContext): Promise<MenuCategory[]> {
  try {
    return categoryTree(await context.reads.allCategories());
  } catch {
    // The menu is a convenience: a failure shows the page without it rather than an error.
    return [];
  }
}
