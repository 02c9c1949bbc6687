import { ACCOUNT_MESSAGES, COUPON_MESSAGES, CONTACT_TEXTS, MESSAGES, formatNumber, localDigits } from '@storefront/shared';
import { BN } from '@storefront/shared/i18n/catalog';
import { serverT } from '@storefront/shared/i18n/server';
import { describe, expect, it } from 'vitest';
import { MESSAGE_PATTERN_IDS, translateMessage } from './translate-message.ts';

// Shared and API messages built with a value are translated by their shape
// (docs/decisions/0038): each shape's id has its Bangla, and English is left as sent.

const bn = { t: serverT('bn'), digits: (s: string) => localDigits(s, 'bn'), lang: 'bn' as const };
const en = { t: serverT('en'), digits: (s: string) => s, lang: 'en' as const };

describe('translateMessage', () => {
  it('has Bangla for every shape it recognises', () => {
    expect(MESSAGE_PATTERN_IDS.filter((id) => !(id in BN))).toEqual([]);
  });

  it('translates messages with a value, in Bangla digits', () => {
    expect(translateMessage(bn, ACCOUNT_MESSAGES.tooLong(40))).toBe('সর্বোচ্চ ৪০ অক্ষর হতে পারে');
    expect(translateMessage(bn, ACCOUNT_MESSAGES.rateLimited(30))).toBe('অনেকবার চেষ্টা করা হয়েছে। ৩০ সেকেন্ড পরে আবার চেষ্টা করুন।');
    expect(translateMessage(bn, ACCOUNT_MESSAGES.rateLimited(600))).toContain('১০ মিনিট');
    expect(translateMessage(bn, CONTACT_TEXTS.tooLong(150))).toBe('অনুগ্রহ করে ১৫০ অক্ষরের মধ্যে রাখুন');
    expect(translateMessage(bn, COUPON_MESSAGES.below_minimum(`৳${formatNumber(5000, 'en', { fractionDigits: 2 })}`))).toBe(
      'এই কুপন ব্যবহার করতে অন্তত ৳৫,০০০.০০ কেনাকাটা করুন',
    );
  });

  it('translates fixed messages by their id and leaves unknown ones as they are', () => {
    expect(translateMessage(bn, MESSAGES.signUp.emailInvalid)).toBe('অনুগ্রহ করে সঠিক ইমেইল দিন');
    expect(translateMessage(bn, 'Something nobody wrote')).toBe('Something nobody wrote');
    expect(translateMessage(bn, null)).toBeNull();
  });

  it('shows English exactly as it was sent', () => {
    const text = "This order's payment was checked too often. Please try again in 5 minutes.";
    expect(translateMessage(en, text)).toBe(text);
    expect(translateMessage(en, ACCOUNT_MESSAGES.tooLong(40))).toBe('Must Be At Most 40 Characters');
  });
});
