import { describe, expect, it } from 'vitest';
import {
  CONTACT_TEXTS,
  contentSearchBody,
  isHomePath,
  isLivePopupContent,
  normaliseContactForm,
  type PopupContent,
  type PopupState,
  popupDismissKey,
  popupImageHeightFactor,
  popupVisibility,
  subscriptionToast,
  validateContactForm,
  validateSubscriptionEmail,
} from './engagement.ts';
import { isEmailShaped, normaliseEmail } from './email.ts';

const campaign: PopupContent = {
  id: 1,
  type: 'campaign',
  title: 'Winter Sale',
  fields: { image: '/media/x.svg', hasCampaign: true },
  updatedAt: '2026-11-21T00:00:00Z',
};
const offer: PopupContent = { id: 2, type: 'subscription-offer', title: 'First order 10% off', fields: { image: '/media/y.svg', hasCampaign: true } };

function state(over: Partial<PopupState> = {}): PopupState {
  return { pathname: '/', signedIn: false, campaign, offer, dismissed: { campaign: false, offer: false }, ...over };
}

describe('campaign pop-up (spec §4)', () => {
  it('shows on home when the campaign has hasCampaign true and an image', () => {
    expect(popupVisibility(state()).campaign).toBe(true);
  });
  it('shows to signed-in customers too', () => {
    expect(popupVisibility(state({ signedIn: true })).campaign).toBe(true);
  });
  it.each(['/shop', '/about', '/contact', '/outlets', '//', '/index'])('does not show on %s', (pathname) => {
    expect(popupVisibility(state({ pathname })).campaign).toBe(false);
  });
  it('does not show without a campaign item', () => {
    expect(popupVisibility(state({ campaign: null })).campaign).toBe(false);
  });
  it.each([
    ['the string false', 'false'],
    ['the string true', 'true'],
    ['false', false],
    ['missing', undefined],
    ['1', 1],
  ])('does not show when hasCampaign is %s', (_name, hasCampaign) => {
    expect(popupVisibility(state({ campaign: { ...campaign, fields: { ...campaign.fields, hasCampaign } } })).campaign).toBe(false);
  });
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '  '],
    ['not a string', 42],
  ])('does not show when the image is %s', (_n, image) => {
    expect(popupVisibility(state({ campaign: { ...campaign, fields: { hasCampaign: true, image } } })).campaign).toBe(false);
  });
  it('does not show an item of another type in the campaign slot', () => {
    expect(popupVisibility(state({ campaign: { ...offer } })).campaign).toBe(false);
  });
  it('stays closed once dismissed', () => {
    expect(popupVisibility(state({ dismissed: { campaign: true, offer: false } })).campaign).toBe(false);
  });
});

describe('subscription offer pop-up (spec §4)', () => {
  const noCampaign = { campaign: null };
  it('shows on home to a guest when there is no campaign', () => {
    expect(popupVisibility(state(noCampaign)).offer).toBe(true);
  });
  it('never shows while the campaign pop-up shows', () => {
    expect(popupVisibility(state())).toEqual({ campaign: true, offer: false });
  });
  it('shows once the campaign pop-up is closed', () => {
    expect(popupVisibility(state({ dismissed: { campaign: true, offer: false } }))).toEqual({ campaign: false, offer: true });
  });
  it('shows when the campaign item is not live (hasCampaign the string false)', () => {
    expect(popupVisibility(state({ campaign: { ...campaign, fields: { ...campaign.fields, hasCampaign: 'false' } } })).offer).toBe(true);
  });
  it('is hidden for signed-in customers', () => {
    expect(popupVisibility(state({ ...noCampaign, signedIn: true })).offer).toBe(false);
  });
  it('is hidden away from home', () => {
    expect(popupVisibility(state({ ...noCampaign, pathname: '/shop' })).offer).toBe(false);
  });
  it.each([
    ['the string false', 'false'],
    ['false', false],
    ['missing', undefined],
  ])('is hidden when hasCampaign is %s', (_n, hasCampaign) => {
    expect(popupVisibility(state({ ...noCampaign, offer: { ...offer, fields: { ...offer.fields, hasCampaign } } })).offer).toBe(false);
  });
  it('is hidden without an image', () => {
    expect(popupVisibility(state({ ...noCampaign, offer: { ...offer, fields: { hasCampaign: true } } })).offer).toBe(false);
  });
  it('is hidden without an offer item', () => {
    expect(popupVisibility(state({ ...noCampaign, offer: null })).offer).toBe(false);
  });
  it('stays closed once dismissed', () => {
    expect(popupVisibility(state({ ...noCampaign, dismissed: { campaign: false, offer: true } })).offer).toBe(false);
  });
});

describe('pop-up helpers', () => {
  it('knows the home path', () => {
    expect(isHomePath('/')).toBe(true);
    expect(isHomePath('/shop')).toBe(false);
  });
  it('checks the item type', () => {
    expect(isLivePopupContent(campaign, 'campaign')).toBe(true);
    expect(isLivePopupContent(campaign, 'subscription-offer')).toBe(false);
  });
  it('gives the image 80 below 991 px and 50 from 991 px (spec §9)', () => {
    expect(popupImageHeightFactor(360)).toBe(80);
    expect(popupImageHeightFactor(990)).toBe(80);
    expect(popupImageHeightFactor(991)).toBe(50);
    expect(popupImageHeightFactor(1440)).toBe(50);
  });
  it('remembers a dismissal per item and version', () => {
    expect(popupDismissKey(campaign)).not.toBe(popupDismissKey({ ...campaign, updatedAt: '2026-12-01T00:00:00Z' }));
    expect(popupDismissKey(campaign)).not.toBe(popupDismissKey({ ...campaign, id: 9 }));
  });
  it('searches content as spec §7 says', () => {
    expect(contentSearchBody('campaign')).toEqual({
      page: 1,
      size: 100,
      textParams: [{ field: 'type', value: 'campaign', matchType: 'EXACT' }],
      nestedParams: [],
      sortParams: [{ field: 'title', type: 'ASC' }],
    });
  });
});

describe('subscription email (spec §5, §8)', () => {
  it.each(['', '   ', '\t\n', null, undefined, 42])('asks for an email when given %j', (v) => {
    expect(validateSubscriptionEmail(v)).toBe('Please Provide Your Email');
  });
  it.each([
    'ali',
    'ali@',
    '@x.com',
    'ali@x',
    'ali @x.com',
    'ali@x..com',
    'a@b@c.com',
    'ali@.com',
    'ali@x.com.',
    '.ali@x.com',
    'al..i@x.com',
    `${'a'.repeat(65)}@x.com`,
    `a@${'b'.repeat(250)}.com`,
  ])('asks for a correct email for %s', (v) => {
    expect(validateSubscriptionEmail(v)).toBe('Please Provide a Correct Email');
  });
  it.each(['ali@example.com', '  Ali.Khan+offers@Example.COM.bd  ', 'r@x.io', 'মিতা@উদাহরণ.বাংলা'])('accepts %s', (v) => {
    expect(validateSubscriptionEmail(v)).toBeNull();
  });
  it('normalises for comparison by trimming and lower-casing', () => {
    expect(normaliseEmail('  Ali@Example.COM ')).toBe('ali@example.com');
    // Full-width letters (a phone keyboard in another script) are the same address.
    expect(normaliseEmail('ＡＬＩ@example.com')).toBe('ali@example.com');
    expect(isEmailShaped(normaliseEmail(' A@B.CO '))).toBe(true);
  });
  it('picks the toast of spec §8 by status', () => {
    expect(subscriptionToast(201)).toEqual({ type: 'success', message: 'Subscription Successful' });
    expect(subscriptionToast(409)).toEqual({ type: 'error', message: 'Already Subscribed with this email' });
    for (const s of [0, 400, 429, 500]) expect(subscriptionToast(s)).toEqual({ type: 'error', message: 'Failed to Subscribe' });
  });
});

describe('contact form', () => {
  const good = { client_name: 'Rahim', client_email: 'rahim@example.com', client_subject: 'Delivery', client_message: 'When can you deliver?\nThanks' };
  it('accepts a complete form', () => {
    expect(validateContactForm(good)).toEqual({});
  });
  it('gives every empty field its own message', () => {
    expect(validateContactForm({ client_name: ' ', client_email: '', client_subject: undefined, client_message: '\n' })).toEqual(CONTACT_TEXTS.required);
  });
  it('checks the email shape', () => {
    expect(validateContactForm({ ...good, client_email: 'rahim@' })).toEqual({ client_email: 'Please Give a Correct Email' });
  });
  it('refuses line breaks in one-line fields (header injection) but not in the body', () => {
    expect(validateContactForm({ ...good, client_subject: 'Hi\r\nBcc: x@y.com', client_name: 'A\nB' })).toEqual({
      client_subject: CONTACT_TEXTS.lineBreaks,
      client_name: CONTACT_TEXTS.lineBreaks,
    });
    expect(validateContactForm({ ...good, client_email: 'a@b.com\nBcc: c@d.com' }).client_email).toBeDefined();
  });
  it('limits lengths', () => {
    expect(validateContactForm({ ...good, client_message: 'x'.repeat(5001) })).toEqual({ client_message: 'Please keep this under 5000 characters' });
    expect(validateContactForm({ ...good, client_message: 'x'.repeat(5000) })).toEqual({});
  });
  it('trims what it keeps', () => {
    expect(normaliseContactForm({ ...good, client_name: '  Rahim ' }).client_name).toBe('Rahim');
  });
});
