import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_MESSAGES,
  canSubmitSignUp,
  classifyUserName,
  displayMobile,
  firstError,
  isAccountEmailShaped,
  emailKey,
  normalizeMobile,
  validateAddress,
  validateForgot,
  validatePasswordChange,
  validatePasswordReset,
  validateProfile,
  validateSignIn,
  validateSignUp,
} from './account-validation.ts';
import { BD_DIVISIONS, DIVISION_NAMES, districtsOf, isDistrictOf } from './bd-locations.ts';
import { MESSAGES } from './messages.ts';

const goodSignUp = { fullName: 'Rahim Uddin', email: 'rahim@example.com', mobile: '01711223344', password: 'secret12', confirmPassword: 'secret12' };

describe('spec §5 texts, word for word', () => {
  it('keeps the sign-in and sign-up messages of the spec, with the Eamil typo fixed', () => {
    expect(MESSAGES.signIn).toEqual({
      userNameRequired: 'Please Give Your User Name',
      passwordTooShort: 'Password Must Be More Than Six Character',
      alreadyLoggedIn: 'Your Mobile or Email is already associated with another account',
      wrongUser: 'Wrong Email or Mobile No',
      wrongPassword: 'Wrong Password',
    });
    expect(MESSAGES.signUp).toEqual({
      fullNameRequired: 'Please Give Your First Name',
      emailRequired: 'Please Give Your Email',
      emailInvalid: 'Please Give a Correct Email',
      mobileRequired: 'Please Give Your Mobile No',
      passwordRequired: 'Please Give A Password',
      passwordTooShort: 'Password Must Be More Than Six Character',
      passwordMismatch: 'Password and Confirm Password not Match',
      duplicateEmail: 'Email already Used, Please Give an Another Email',
    });
  });
});

describe('validateSignIn (spec §5)', () => {
  it('passes a user name and a 6-character password', () => {
    expect(validateSignIn({ userName: 'rahim@example.com', password: 'abcdef' })).toEqual({});
  });
  it('asks for the user name when it is empty or blank', () => {
    expect(validateSignIn({ userName: '', password: 'abcdef' })).toEqual({ userName: 'Please Give Your User Name' });
    expect(validateSignIn({ userName: '   ', password: 'abcdef' })).toEqual({ userName: 'Please Give Your User Name' });
  });
  it('refuses a password under 6 characters', () => {
    expect(validateSignIn({ userName: 'x', password: 'abcde' })).toEqual({ password: 'Password Must Be More Than Six Character' });
    expect(validateSignIn({ userName: 'x', password: '' })).toEqual({ password: 'Password Must Be More Than Six Character' });
  });
  it('reports both fields in order, user name first', () => {
    const e = validateSignIn({ userName: '', password: '1' });
    expect(Object.keys(e)).toEqual(['userName', 'password']);
    expect(firstError(e)).toEqual({ field: 'userName', message: 'Please Give Your User Name' });
  });
  it('refuses absurdly long input', () => {
    expect(validateSignIn({ userName: 'a'.repeat(255), password: 'abcdef' }).userName).toBe(ACCOUNT_MESSAGES.tooLong(254));
    expect(validateSignIn({ userName: 'a', password: 'p'.repeat(129) }).password).toBe(ACCOUNT_MESSAGES.passwordTooLong);
  });
});

describe('validateSignUp (spec §5, in order)', () => {
  it('passes a complete form', () => {
    expect(validateSignUp(goodSignUp)).toEqual({});
  });
  it('1. asks for the full name', () => {
    expect(validateSignUp({ ...goodSignUp, fullName: '  ' })).toEqual({ fullName: 'Please Give Your First Name' });
  });
  it('2. asks for the email, then for a correct one', () => {
    expect(validateSignUp({ ...goodSignUp, email: '' })).toEqual({ email: 'Please Give Your Email' });
    for (const bad of ['rahim', 'rahim@', '@example.com', 'rahim@example', 'ra him@example.com', 'a@@b.com', 'a@b..com']) {
      expect(validateSignUp({ ...goodSignUp, email: bad }), bad).toEqual({ email: 'Please Give a Correct Email' });
    }
  });
  it('3. asks for the mobile number, then for a correct one', () => {
    expect(validateSignUp({ ...goodSignUp, mobile: '' })).toEqual({ mobile: 'Please Give Your Mobile No' });
    expect(validateSignUp({ ...goodSignUp, mobile: '12345' })).toEqual({ mobile: ACCOUNT_MESSAGES.mobileInvalid });
  });
  it('4. asks for a password of at least 6 characters after trimming', () => {
    expect(validateSignUp({ ...goodSignUp, password: '', confirmPassword: '' })).toEqual({ password: 'Please Give A Password' });
    expect(validateSignUp({ ...goodSignUp, password: '  abc  ', confirmPassword: '  abc  ' })).toEqual({
      password: 'Password Must Be More Than Six Character',
    });
    expect(validateSignUp({ ...goodSignUp, password: 'abcdef', confirmPassword: 'abcdef' })).toEqual({});
  });
  it('5. shows the mismatch on both password fields', () => {
    expect(validateSignUp({ ...goodSignUp, confirmPassword: 'secret13' })).toEqual({
      password: 'Password and Confirm Password not Match',
      confirmPassword: 'Password and Confirm Password not Match',
    });
  });
  it('checks the API body (no confirmation field) with the same rules', () => {
    const { confirmPassword: _, ...body } = goodSignUp;
    expect(validateSignUp(body)).toEqual({});
    expect(validateSignUp({ ...body, password: 'abc' })).toEqual({ password: 'Password Must Be More Than Six Character' });
  });
  it('reports every failing field in the order of the spec', () => {
    const e = validateSignUp({ fullName: '', email: 'x', mobile: '', password: '', confirmPassword: 'y' });
    expect(Object.keys(e)).toEqual(['fullName', 'email', 'mobile', 'password']);
    expect(firstError(e)?.message).toBe('Please Give Your First Name');
  });
  it('6. keeps Sign Up disabled until the terms box is ticked', () => {
    expect(canSubmitSignUp(false)).toBe(false);
    expect(canSubmitSignUp(true)).toBe(true);
  });
});

describe('emailKey and isAccountEmailShaped', () => {
  it('compares emails case-insensitively after NFKC', () => {
    expect(emailKey('  Rahim@Example.COM ')).toBe('rahim@example.com');
    // Full-width letters and the ﬁ ligature are compatibility forms of plain letters.
    expect(emailKey('ｒａｈｉｍ@example.com')).toBe('rahim@example.com');
    expect(emailKey('ﬁroz@example.com')).toBe('firoz@example.com');
  });
  it('accepts ordinary addresses, including internationalised ones', () => {
    for (const ok of ['a@b.co', 'first.last+tag@sub.example.com.bd', 'রহিম@উদাহরণ.বাংলা']) expect(isAccountEmailShaped(ok), ok).toBe(true);
  });
  it('normalising twice changes nothing (property)', () => {
    fc.assert(fc.property(fc.string(), (s) => emailKey(emailKey(s)) === emailKey(s)));
    fc.assert(
      fc.property(fc.string(), fc.string({ unit: 'grapheme' }), (local, domain) => emailKey(emailKey(`${local}@${domain}`)) === emailKey(`${local}@${domain}`)),
    );
  });
  it('an internationalised domain and its punycode form are one address', () => {
    expect(emailKey('user@bücher.example')).toBe('user@xn--bcher-kva.example');
    expect(emailKey(' User@BÜCHER.Example ')).toBe('user@xn--bcher-kva.example');
    expect(emailKey('user@XN--BCHER-KVA.example')).toBe('user@xn--bcher-kva.example');
    expect(emailKey('রহিম@উদাহরণ.বাংলা')).toBe(emailKey('রহিম@xn--d5b6ci4b4b3a.xn--54b7fta0cc'));
    // Only the domain is mapped: the mailbox name is the provider's to read.
    expect(emailKey('Bücher@bücher.example')).toBe('bücher@xn--bcher-kva.example');
    // A domain no mail can reach is kept as typed (lower-cased), never turned into another.
    expect(emailKey('a@bücher.123')).toBe('a@bücher.123');
    expect(emailKey('a@ü/x?y')).toBe('a@ü/x?y');
  });
});

describe('normalizeMobile', () => {
  it('gives Bangladeshi mobiles one form, however they are written', () => {
    for (const v of [
      '01711223344',
      '+8801711223344',
      '8801711223344',
      '008801711223344',
      '017-1122-3344',
      '+880 1711 223344',
      '(017) 11223344',
      '০১৭১১২২৩৩৪৪',
    ]) {
      expect(normalizeMobile(v), v).toBe('+8801711223344');
    }
  });
  it('refuses numbers that are not Bangladeshi mobiles', () => {
    for (const v of ['0171122334', '017112233445', '01211223344', '+88021234567', '1711223344', 'abc', '', '+880']) {
      expect(normalizeMobile(v), v).toBeNull();
    }
  });
  it('shows a stored Bangladeshi mobile in the local form', () => {
    expect(displayMobile('+8801711223344')).toBe('01711223344');
    expect(displayMobile('+447700900123')).toBe('+447700900123');
  });
  it('keeps other international numbers in E.164 form', () => {
    expect(normalizeMobile('+44 7700 900123')).toBe('+447700900123');
    expect(normalizeMobile('0044 7700 900123')).toBe('+447700900123');
  });
  it('every 01[3-9] number of 11 digits is valid and keeps its digits (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 9 }), fc.stringMatching(/^\d{8}$/), (op, rest) => {
        expect(normalizeMobile(`01${op}${rest}`)).toBe(`+8801${op}${rest}`);
      }),
    );
  });
});

describe('classifyUserName', () => {
  it('looks up an email by its normalised form and a mobile by its normalised form', () => {
    expect(classifyUserName(' Rahim@Example.com ')).toEqual({ kind: 'email', value: 'rahim@example.com' });
    expect(classifyUserName('01711-223344')).toEqual({ kind: 'mobile', value: '+8801711223344' });
    expect(classifyUserName('+8801711223344')).toEqual({ kind: 'mobile', value: '+8801711223344' });
    expect(classifyUserName('someone')).toEqual({ kind: 'email', value: 'someone' });
  });
});

describe('profile, password change and reset', () => {
  it('validateProfile needs a name and a correct mobile', () => {
    expect(validateProfile({ fullName: 'R', mobile: '01811223344' })).toEqual({});
    expect(validateProfile({ fullName: '', mobile: 'x' })).toEqual({ fullName: 'Please Give Your First Name', mobile: ACCOUNT_MESSAGES.mobileInvalid });
    expect(validateProfile({ fullName: 'a'.repeat(101), mobile: '01811223344' })).toEqual({ fullName: ACCOUNT_MESSAGES.fullNameTooLong });
  });
  it('validatePasswordChange needs the current password and a new, different, confirmed one', () => {
    expect(validatePasswordChange({ currentPassword: 'old-pass', newPassword: 'new-pass', confirmPassword: 'new-pass' })).toEqual({});
    expect(validatePasswordChange({ currentPassword: '', newPassword: 'abc' })).toEqual({
      currentPassword: ACCOUNT_MESSAGES.currentPasswordRequired,
      newPassword: 'Password Must Be More Than Six Character',
    });
    expect(validatePasswordChange({ currentPassword: 'same-pass', newPassword: 'same-pass' })).toEqual({ newPassword: ACCOUNT_MESSAGES.newPasswordSame });
    expect(validatePasswordChange({ currentPassword: 'old-pass', newPassword: 'new-pass', confirmPassword: 'other' })).toEqual({
      newPassword: 'Password and Confirm Password not Match',
      confirmPassword: 'Password and Confirm Password not Match',
    });
  });
  it('validatePasswordReset uses the sign-up password rules', () => {
    expect(validatePasswordReset({ password: 'abcdef', confirmPassword: 'abcdef' })).toEqual({});
    expect(validatePasswordReset({ password: '' })).toEqual({ password: 'Please Give A Password' });
    expect(validatePasswordReset({ password: 'abcdef', confirmPassword: 'abcdeg' })).toEqual({
      password: 'Password and Confirm Password not Match',
      confirmPassword: 'Password and Confirm Password not Match',
    });
  });
  it('validateForgot uses the sign-up email rules', () => {
    expect(validateForgot({ email: '' })).toEqual({ email: 'Please Give Your Email' });
    expect(validateForgot({ email: 'nope' })).toEqual({ email: 'Please Give a Correct Email' });
    expect(validateForgot({ email: 'a@b.com' })).toEqual({});
  });
});

describe('addresses', () => {
  const good = { fullName: 'Rahim', phone: '01711223344', division: 'Dhaka', district: 'Gazipur', area: 'Tongi', addressLine: 'House 4, Road 2' };
  it('passes a complete Bangladeshi address', () => {
    expect(validateAddress(good)).toEqual({});
  });
  it('asks for every field, in form order', () => {
    const e = validateAddress({ fullName: '', phone: '', division: '', district: '', area: ' ', addressLine: '' });
    expect(e).toEqual({
      fullName: ACCOUNT_MESSAGES.addressNameRequired,
      phone: ACCOUNT_MESSAGES.addressPhoneRequired,
      division: ACCOUNT_MESSAGES.divisionRequired,
      district: ACCOUNT_MESSAGES.districtRequired,
      area: ACCOUNT_MESSAGES.areaRequired,
      addressLine: ACCOUNT_MESSAGES.addressLineRequired,
    });
  });
  it('refuses a district of another division', () => {
    expect(validateAddress({ ...good, district: 'Sylhet' })).toEqual({ district: ACCOUNT_MESSAGES.districtRequired });
  });
});

describe('Bangladesh divisions and districts', () => {
  it('has the 8 divisions and 64 districts, each district once', () => {
    expect(DIVISION_NAMES).toHaveLength(8);
    const all = Object.values(BD_DIVISIONS).flat();
    expect(all).toHaveLength(64);
    expect(new Set(all).size).toBe(64);
  });
  it('knows which division a district is in', () => {
    expect(isDistrictOf('Chattogram', "Cox's Bazar")).toBe(true);
    expect(isDistrictOf('Dhaka', "Cox's Bazar")).toBe(false);
    expect(districtsOf('Atlantis')).toEqual([]);
    expect(districtsOf('toString')).toEqual([]);
  });
});
