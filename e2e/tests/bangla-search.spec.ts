import { expect, type Page, test } from '@playwright/test';
import { skipHomePopups } from '../fixtures/popups.ts';

// Searching the catalogue in Bangla (docs/decisions/0038): a Bangla word finds the products
// whose Bangla titles carry it, shown with those titles, and a model code is found however a
// shopper types it. The search box is found by its role, whatever the language of its label.

const API = { 'x-api-key': process.env.STOREFRONT_API_KEY ?? 'storefront-web' };

async function searchFor(page: Page, term: string) {
  const form = page.getByRole('search');
  const box = form.getByRole('searchbox');
  if (!(await box.isVisible())) await form.getByRole('button').click();
  await box.fill(term);
  await box.press('Enter');
}

// The pop-ups have their own spec; here they are closed for the visit before any page loads.
test.beforeEach(({ page }) => skipHomePopups(page));

test.describe('searching in Bangla', () => {
  test('a shopper reading Bangla types সোফা and finds the sofas, titled in Bangla', async ({ page }) => {
    await page.goto('/shop?lang=bn');
    await searchFor(page, 'সোফা');
    await expect(page).toHaveURL(/\/shop\?q=%E0%A6%B8%E0%A7%8B%E0%A6%AB%E0%A6%BE&categoryName=all$/);
    const titles = page.getByTestId('product-card').getByRole('heading');
    // The demo's sofas carry the word in their Bangla titles. A product with no Bangla title
    // (one another spec adds in English) may be found by its category's Bangla name: it shows
    // its English title, with no Bangla in it. The address changes before the results arrive,
    // and the listing on screen until then is the shop's first page: wait for the results.
    await expect
      .poll(async () => {
        const bangla = (await titles.allTextContents()).filter((title) => /[\u0980-\u09FF]/.test(title));
        return bangla.length > 5 ? bangla.filter((title) => !title.includes('সোফা')) : `${bangla.length} Bangla titles`;
      })
      .toEqual([]);
    await expect(page.locator('html')).toHaveAttribute('lang', 'bn');
  });

  test('a model code typed with a space, run together or with a dash finds that one product', async ({ page, request }) => {
    // A real code of the demo catalogue: the first DFL product.
    let item: { id: number; title: string; modelCode: string } | null = null;
    for (let id = 1; id < 60 && !item; id++) {
      const res = await request.get(`/api/v3/items/joined?id=${id}`, { headers: { ...API, cookie: 'lang=bn' } });
      if (!res.ok()) continue;
      const body = await res.json();
      if (body.modelCode?.startsWith('DFL-')) item = body;
    }
    expect(item).not.toBeNull();
    const digits = item!.modelCode.slice(4);
    await page.goto('/shop?lang=bn');
    for (const typed of [`dfl ${digits}`, `DFL${digits}`, `dfl-${digits}`]) {
      await searchFor(page, typed);
      await expect(page.getByTestId('product-card')).toHaveCount(1);
      await expect(page.getByTestId('product-card').getByRole('heading')).toHaveText(item!.title);
    }
    expect(item!.title).toMatch(/[\u0980-\u09ff]/);
  });
});
