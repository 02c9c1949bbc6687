import { expect, type Page, test } from '@playwright/test';
import { accountReady, apiHeaders, newShopper, open, signUpByApi, someSkus } from '../fixtures/accounts.ts';
import { findSku, openProduct } from '../fixtures/cart.ts';

// Customer accounts: the modals, the header, the profile tabs and the wishlist,
// in a real Chromium against the production build. `request` signs shoppers up without
// signing the page in; `page.request` shares the page's cookies and signs it in.

// A 1×1 PNG: a real image, which the files endpoint checks from the bytes.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const signInDialog = (page: Page) => page.getByRole('dialog', { name: 'Sign In' });
const signUpDialog = (page: Page) => page.getByRole('dialog', { name: 'Create Your Account' });
const bodyOverflow = (page: Page) => page.evaluate(() => getComputedStyle(document.body).overflow);

test.describe('signing in and up', () => {
  test('guest sees the sign-in modal when clicking the account icon', async ({ page }) => {
    await open(page, '/about');
    await expect(page.getByTestId('wishlist-button')).toHaveCount(0);
    const account = page.getByRole('button', { name: 'Sign in', exact: true });
    await account.click();
    const dialog = signInDialog(page);
    await expect(dialog).toBeVisible();
    // Focus moves into the modal, the page behind stops scrolling, Escape closes it.
    await expect(dialog.getByLabel('Email or Mobile No')).toBeFocused();
    expect(await bodyOverflow(page)).toBe('hidden');
    for (let i = 0; i < 8; i++) await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(account).toBeFocused();
    expect(await bodyOverflow(page)).not.toBe('hidden');
  });

  test('the sign-in and sign-up modals open from each other', async ({ page }) => {
    await open(page, '/about');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await signInDialog(page).getByRole('button', { name: 'Create an account' }).click();
    await expect(signUpDialog(page)).toBeVisible();
    await expect(signInDialog(page)).toHaveCount(0);
    await signUpDialog(page).getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(signInDialog(page)).toBeVisible();
  });

  test('sign-in shows the spec texts for an empty form and for a wrong password', async ({ page, request }) => {
    const shopper = await signUpByApi(request);
    await open(page, '/about');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const dialog = signInDialog(page);
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(dialog.getByText('Please Give Your User Name')).toBeVisible();
    await expect(dialog.getByText('Password Must Be More Than Six Character')).toBeVisible();
    await dialog.getByLabel('Email or Mobile No').fill(shopper.email);
    await dialog.getByLabel('Password', { exact: true }).fill('not-the-password');
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(dialog.getByText('Wrong Email or Mobile No')).toBeVisible();
    await expect(dialog.getByText('Wrong Password')).toBeVisible();
    await expect(dialog.getByLabel('Email or Mobile No')).toHaveValue(shopper.email);
    // Still a guest: the modal stays, and closing it shows the account icon.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  });

  test('sign-up checks the spec rules in order and keeps Sign Up disabled until the terms are ticked', async ({ page }) => {
    await open(page, '/about');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await signInDialog(page).getByRole('button', { name: 'Create an account' }).click();
    const dialog = signUpDialog(page);
    const submit = dialog.getByRole('button', { name: 'Sign Up' });
    await expect(submit).toBeDisabled();
    await dialog.getByRole('checkbox', { name: /I agree to the Terms and Conditions/ }).check();
    await expect(submit).toBeEnabled();
    await dialog.getByLabel('Email', { exact: true }).fill('rahim@');
    await dialog.getByLabel('Password', { exact: true }).fill('secret1');
    await dialog.getByLabel('Confirm Password', { exact: true }).fill('secret2');
    await submit.click();
    await expect(dialog.getByTestId('field-error')).toHaveText([
      'Please Give Your First Name',
      'Please Give a Correct Email',
      'Please Give Your Mobile No',
      'Password and Confirm Password not Match',
      'Password and Confirm Password not Match',
    ]);
    // The first wrong field has the focus.
    await expect(dialog.getByLabel('Full Name')).toBeFocused();
    await dialog.getByRole('checkbox').uncheck();
    await expect(submit).toBeDisabled();
  });

  test('shopper signs up, is signed in at once, signs out, and signs in again with the mobile number', async ({ page }) => {
    const s = newShopper('Farhana Akter');
    await open(page, '/about');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await signInDialog(page).getByRole('button', { name: 'Create an account' }).click();
    const dialog = signUpDialog(page);
    await dialog.getByLabel('Full Name').fill(s.fullName);
    await dialog.getByLabel('Email', { exact: true }).fill(s.email);
    await dialog.getByLabel('Mobile No').fill(s.mobile);
    await dialog.getByLabel('Password', { exact: true }).fill(s.password);
    await dialog.getByLabel('Confirm Password', { exact: true }).fill(s.password);
    await dialog.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Sign Up' }).click();
    await expect(dialog).toBeHidden();
    // The header changes at once: the account menu and the wishlist heart.
    const menu = page.getByRole('button', { name: `Account menu for ${s.fullName}` });
    await expect(menu).toBeVisible();
    await expect(page.getByTestId('wishlist-button')).toBeVisible();
    await expect(page.getByText(`Welcome, ${s.fullName}! Your account is ready.`)).toBeVisible();
    // The session is an httpOnly cookie that scripts cannot read.
    const sid = (await page.context().cookies()).find((c) => c.name === 'sid');
    expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('sid=');
    // A reload renders the signed-in header on the server.
    await page.reload();
    await accountReady(page);
    await expect(menu).toBeVisible();

    await menu.click();
    await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await expect(page.getByTestId('wishlist-button')).toHaveCount(0);
    await page.reload();
    await accountReady(page);
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();

    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await signInDialog(page).getByLabel('Email or Mobile No').fill(`+88${s.mobile}`);
    await signInDialog(page).getByLabel('Password', { exact: true }).fill(s.password);
    await signInDialog(page).getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(menu).toBeVisible();
    await expect(signInDialog(page)).toHaveCount(0);
  });

  test('a used email at sign-up shows the spec text', async ({ page, request }) => {
    const taken = await signUpByApi(request);
    await open(page, '/sign-up');
    await page.getByLabel('Full Name').fill('Someone Else');
    await page.getByLabel('Email', { exact: true }).fill(taken.email.toUpperCase());
    await page.getByLabel('Mobile No').fill(newShopper().mobile);
    await page.getByLabel('Password', { exact: true }).fill('secret-pass-2');
    await page.getByLabel('Confirm Password', { exact: true }).fill('secret-pass-2');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText('Email already Used, Please Give an Another Email')).toBeVisible();
  });

  test('a network error keeps what was typed and says so', async ({ page }) => {
    await open(page, '/about');
    await page.route('**/api/signin/customers', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const dialog = signInDialog(page);
    await dialog.getByLabel('Email or Mobile No').fill('someone@example.com');
    await dialog.getByLabel('Password', { exact: true }).fill('secret-pass');
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText('We could not reach the shop. Please check your connection and try again.');
    await expect(dialog.getByLabel('Email or Mobile No')).toHaveValue('someone@example.com');
    await expect(dialog.getByLabel('Password', { exact: true })).toHaveValue('secret-pass');
  });

  test('the /sign-in page signs in and goes where it was asked to', async ({ page, request }) => {
    const s = await signUpByApi(request);
    await open(page, '/sign-in?redirectTo=/profile?tab=addresses');
    await page.getByLabel('Email or Mobile No').fill(s.email);
    await page.getByLabel('Password', { exact: true }).fill(s.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/profile\?tab=addresses$/);
    await expect(page.getByRole('heading', { name: 'Saved addresses' })).toBeVisible();
  });
});

test.describe('wishlist', () => {
  test('the heart on the product page saves the item and the badge counts it', async ({ page }) => {
    const [sku] = await someSkus(page.request, 1);
    await signUpByApi(page.request);
    await open(page, `/details?id=${sku.itemId}`);
    const heart = page.getByRole('main').getByRole('button', { name: `Add ${sku.title} to wishlist` });
    await expect(page.getByTestId('wishlist-count')).toHaveCount(0);
    await heart.click();
    await expect(page.getByRole('main').getByRole('button', { name: `Remove ${sku.title} from wishlist` })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('wishlist-count')).toHaveText('1');
    await expect(page.getByRole('link', { name: 'Wishlist, 1 item' })).toBeVisible();

    await page.getByRole('link', { name: 'Wishlist, 1 item' }).click();
    await expect(page).toHaveURL(/\/profile\?tab=wishlist$/);
    const list = page.getByTestId('wishlist-item');
    await expect(list).toHaveCount(1);
    await expect(list.first()).toContainText(sku.title);
    await expect(list.first().getByTestId('add-to-cart')).toBeVisible();
    await list
      .first()
      .getByRole('button', { name: `Remove ${sku.title} from wishlist` })
      .click();
    await expect(page.getByText('Your wishlist is empty')).toBeVisible();
    await expect(page.getByTestId('wishlist-count')).toHaveCount(0);
  });

  test('a guest clicking a heart is asked to sign in, and the item is saved after', async ({ page, request }) => {
    const [sku] = await someSkus(page.request, 1);
    const s = await signUpByApi(request);
    await open(page, `/details?id=${sku.itemId}`);
    await page
      .getByRole('main')
      .getByRole('button', { name: `Add ${sku.title} to wishlist` })
      .click();
    const dialog = signInDialog(page);
    await dialog.getByLabel('Email or Mobile No').fill(s.email);
    await dialog.getByLabel('Password', { exact: true }).fill(s.password);
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByTestId('wishlist-count')).toHaveText('1');
    await expect(page.getByRole('main').getByRole('button', { name: `Remove ${sku.title} from wishlist` })).toBeVisible();
  });

  test('the wishlist tab lists items newest first with add-to-cart', async ({ page }) => {
    const skus = await someSkus(page.request, 3);
    await signUpByApi(page.request);
    for (const s of skus) {
      const res = await page.request.post('/api/wishlists/items', { headers: apiHeaders, data: { itemId: s.itemId, skuCode: s.skuCode, action: 'add' } });
      expect(res.ok()).toBe(true);
    }
    await open(page, '/profile?tab=wishlist');
    await expect(page.getByRole('tab', { name: 'Wishlist' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('wishlist-item')).toHaveCount(3);
    await expect(page.getByTestId('wishlist-count')).toHaveText('3');
    await page.getByTestId('wishlist-item').first().getByTestId('add-to-cart').click();
    await expect(page.getByText(`${skus[2].title} added to your cart`)).toBeVisible();
  });
});

test.describe('profile', () => {
  test('customer edits the name and uploads a picture with a progress bar', async ({ page }) => {
    const s = await signUpByApi(page.request);
    await open(page, '/profile');
    await expect(page.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('subscription-status')).toContainText('Not subscribed');
    const name = page.getByLabel('Full Name');
    await expect(name).toHaveValue(s.fullName);
    await name.fill('Farzana Haque');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Your profile has been saved')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Account menu for Farzana Haque' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Farzana Haque' })).toBeVisible();

    // Hold the upload's answer until the progress bar has been seen: no timing guesses.
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/api/files', async (route) => {
      const response = await route.fetch();
      await gate;
      await route.fulfill({ response });
    });
    await page.getByTestId('file-upload-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByRole('progressbar', { name: 'Uploading profile picture' })).toBeVisible();
    release();
    await expect(page.getByText('Your profile picture has been updated')).toBeVisible();
    const avatar = page.getByRole('button', { name: 'Account menu for Farzana Haque' }).locator('img');
    await expect(avatar).toHaveAttribute('src', /\/files\//);
    await page.reload();
    await accountReady(page);
    await expect(page.getByRole('button', { name: 'Change picture', exact: true })).toBeVisible();
    await expect(avatar).toHaveAttribute('src', /\/files\//);
  });

  test('an address is added with division, district and area, kept, and used again without a copy', async ({ page }) => {
    await signUpByApi(page.request);
    await open(page, '/profile');
    await page.getByRole('tab', { name: 'Addresses' }).click();
    await expect(page).toHaveURL(/tab=addresses/);
    const form = page.getByTestId('address-form');
    const fill = async () => {
      await form.getByLabel('Receiver’s Name').fill('Rahim Uddin');
      await form.getByLabel('Phone').fill('01711-223344');
      await form.getByLabel('Division').selectOption('Chattogram');
      await form.getByLabel('District').selectOption("Cox's Bazar");
      await form.getByLabel('Area').fill('Kolatoli');
      await form.getByLabel('House, Road and Landmark').fill('Hotel Road 3');
    };
    await form.getByRole('button', { name: 'Save address' }).click();
    await expect(form.getByText('Please Choose a Division')).toBeVisible();
    await fill();
    await form.getByRole('button', { name: 'Save address' }).click();
    const card = page.getByTestId('address-card');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText("Kolatoli, Cox's Bazar, Chattogram");
    await expect(card).toContainText('01711223344');
    await expect(card).toContainText('Default');
    await page.reload();
    await accountReady(page);
    await expect(card).toHaveCount(1);
    // Entering the same address again reuses the saved one.
    await page.getByRole('button', { name: 'Add a new address' }).click();
    await fill();
    await form.getByRole('button', { name: 'Save address' }).click();
    await expect(page.getByText('Address saved')).toBeVisible();
    await expect(card).toHaveCount(1);

    // Checkout offers it, already chosen as the default delivery address.
    const sku = await findSku(page.request, 'three-seater-sofas');
    await openProduct(page, sku);
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await open(page, '/checkout');
    await expect(page.getByRole('radio', { name: /Hotel Road 3, Kolatoli, Cox's Bazar/ })).toBeChecked();
  });

  test('the security tab changes the password', async ({ page }) => {
    const s = await signUpByApi(page.request);
    await open(page, '/profile?tab=security');
    await page.getByLabel('Current Password', { exact: true }).fill('wrong-one-1');
    await page.getByLabel('New Password', { exact: true }).fill('brand-new-1');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('brand-new-1');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Wrong Password')).toBeVisible();
    await page.getByLabel('Current Password', { exact: true }).fill(s.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Your password has been changed.')).toBeVisible();
  });

  test('a guest on /profile is offered sign-in, and sees the profile after it', async ({ page, request }) => {
    const s = await signUpByApi(request);
    await open(page, '/profile?tab=security');
    await page.getByRole('main').getByRole('button', { name: 'Sign In', exact: true }).click();
    await signInDialog(page).getByLabel('Email or Mobile No').fill(s.email);
    await signInDialog(page).getByLabel('Password', { exact: true }).fill(s.password);
    await signInDialog(page).getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
  });

  test('forgot password answers the same for any email; a bad reset link says so', async ({ page }) => {
    await open(page, '/forgot-password');
    await page.getByLabel('Email').fill('nobody-here@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toContainText('If an account exists for this email');
    await open(page, '/reset-password?token=not-a-real-token');
    await page.getByLabel('New Password', { exact: true }).fill('brand-new-1');
    await page.getByLabel('Confirm Password', { exact: true }).fill('brand-new-1');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('alert')).toHaveText('This reset link is not valid or has expired. Please ask for a new one.');
  });
});
