import { isDistrictOf, isDivision } from './bd-locations.ts';
import { PAGE_SIZE, PASSWORD_MIN_LENGTH } from './constants.ts';
import { isEmailShaped as isPlainEmailShaped, normaliseEmail } from './email.ts';
import { NAME_INVISIBLE_MESSAGE, nameHasInvisibleCharacters } from './invisible-characters.ts';
import { MESSAGES } from './messages.ts';

// Account rules of spec §5 (sign-in, sign-up) and the rules the spec leaves open
// (profile, addresses, password change), as pure functions: the modals and pages show
// these messages and the API refuses with the same ones, so the two never disagree.

/** Texts the spec does not give, in the spec's own style. */
export const ACCOUNT_MESSAGES = {
  mobileInvalid: 'Please Give a Correct Mobile No',
  duplicateMobile: 'Mobile No already Used, Please Give an Another Mobile No',
  passwordTooLong: 'Password Must Be At Most 128 Characters',
  fullNameTooLong: 'Name Must Be At Most 100 Characters',
  nameInvisible: NAME_INVISIBLE_MESSAGE,
  currentPasswordRequired: 'Please Give Your Current Password',
  newPasswordSame: 'New Password Must Be Different From the Current One',
  termsRequired: 'Please Accept the Terms and Conditions',
  addressNameRequired: 'Please Give the Receiver’s Name',
  addressPhoneRequired: 'Please Give a Phone Number',
  divisionRequired: 'Please Choose a Division',
  districtRequired: 'Please Choose a District',
  areaRequired: 'Please Give the Area',
  addressLineRequired: 'Please Give the House and Road',
  tooLong: (max: number) => `Must Be At Most ${max} Characters`,
  invalidCredentials: 'The email, mobile number or password is not correct',
  rateLimited: (seconds: number) =>
    `Too many attempts. Please try again in ${seconds < 90 ? `${Math.max(1, Math.ceil(seconds))} seconds` : `${Math.ceil(seconds / 60)} minutes`}.`,
  serverError: 'Something went wrong on our side. Please try again in a moment.',
  sessionExpired: 'Your session has ended. Please sign in again.',
  resetSent: 'If an account exists for this email, we have sent a link to reset the password. The link works for one hour.',
  resetInvalid: 'This reset link is not valid or has expired. Please ask for a new one.',
  passwordChanged: 'Your password has been changed. You have been signed out on your other devices.',
  passwordReset: 'Your password has been reset. Please sign in with the new password.',
} as const;

export const LIMITS = {
  fullName: 100,
  email: 254,
  mobile: 20,
  /** Long enough for any passphrase, short enough that hashing stays cheap. */
  passwordMax: 128,
  userName: 254,
  area: 100,
  addressLine: 300,
  label: 40,
} as const;

/** Errors by field, in the order the spec checks the fields (spec §5). */
export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

/** The first error in check order, or null when there is none. */
export function firstError(errors: FieldErrors): { field: string; message: string } | null {
  for (const [field, message] of Object.entries(errors)) if (message) return { field, message };
  return null;
}

export function hasErrors(errors: FieldErrors): boolean {
  return firstError(errors) !== null;
}

const length = (s: string) => [...s].length;

// ---------------------------------------------------------------------------
// Normalisation

/**
 * The form by which accounts compare emails: Unicode NFKC (so full-width and compatibility
 * forms equal their plain letters), trimmed, lower-cased, the domain in its ASCII (IDNA)
 * form (bücher.example is xn--bcher-kva.example). Two addresses that differ only in these
 * ways belong to one account. The same as the newsletter's normaliseEmail (email.ts).
 */
export function emailKey(email: string): string {
  return normaliseEmail(email);
}

/** spec §5 "shaped {email}", by the shop's one email rule (email.ts), after NFKC. */
export function isAccountEmailShaped(email: string): boolean {
  return isPlainEmailShaped(email.normalize('NFKC').trim());
}

const BENGALI_DIGITS = /[\u09E6-\u09EF]/g;

/**
 * A mobile number in one form, or null when it is not one. Bangladeshi mobiles
 * (01XXXXXXXXX, 8801…, +8801…, 008801…, with spaces, dashes or Bengali digits) become
 * +8801XXXXXXXXX; other international numbers are kept in E.164 form (+ and 8–15 digits).
 */
export function normalizeMobile(input: string): string | null {
  const s = input
    .normalize('NFKC')
    .replace(BENGALI_DIGITS, (d) => String(d.charCodeAt(0) - 0x09e6))
    .replace(/[\s\-().]/g, '');
  let m: RegExpMatchArray | null;
  if ((m = s.match(/^(?:\+|00)?(?:88)?(01[3-9]\d{8})$/))) return `+88${m[1]}`;
  // Any other +880 number is a landline or a mistake, not a mobile.
  if (/^(?:\+|00)880/.test(s)) return null;
  if ((m = s.match(/^(?:\+|00)([1-9]\d{7,14})$/))) return `+${m[1]}`;
  return null;
}

/** A stored mobile as Bangladeshis write it: +8801XXXXXXXXX → 01XXXXXXXXX; others unchanged. */
export function displayMobile(mobile: string): string {
  return /^\+8801\d{9}$/.test(mobile) ? mobile.slice(3) : mobile;
}

/** How a sign-in user name (spec §3: email or mobile) is looked up. */
export function classifyUserName(userName: string): { kind: 'email' | 'mobile'; value: string } {
  const t = userName.normalize('NFKC').trim();
  if (t.includes('@')) return { kind: 'email', value: emailKey(t) };
  const mobile = normalizeMobile(t);
  if (mobile) return { kind: 'mobile', value: mobile };
  // Neither: still looked up as an email, which simply finds nobody.
  return { kind: 'email', value: emailKey(t) };
}

// ---------------------------------------------------------------------------
// Sign-in and sign-up (spec §5)

export interface TSignInFields {
  userName: string;
  password: string;
}

export function validateSignIn(v: TSignInFields): FieldErrors<keyof TSignInFields> {
  const e: FieldErrors<keyof TSignInFields> = {};
  if (!v.userName.trim()) e.userName = MESSAGES.signIn.userNameRequired;
  else if (length(v.userName) > LIMITS.userName) e.userName = ACCOUNT_MESSAGES.tooLong(LIMITS.userName);
  if (length(v.password) < PASSWORD_MIN_LENGTH) e.password = MESSAGES.signIn.passwordTooShort;
  else if (length(v.password) > LIMITS.passwordMax) e.password = ACCOUNT_MESSAGES.passwordTooLong;
  return e;
}

/** spec §5: required, and at least 6 characters after trimming. */
export function passwordError(password: string, requiredMessage: string = MESSAGES.signUp.passwordRequired): string | undefined {
  if (!password) return requiredMessage;
  if (length(password.trim()) < PASSWORD_MIN_LENGTH) return MESSAGES.signUp.passwordTooShort;
  if (length(password) > LIMITS.passwordMax) return ACCOUNT_MESSAGES.passwordTooLong;
  return undefined;
}

export function fullNameError(fullName: string): string | undefined {
  if (!fullName.trim()) return MESSAGES.signUp.fullNameRequired;
  if (length(fullName.trim()) > LIMITS.fullName) return ACCOUNT_MESSAGES.fullNameTooLong;
  if (nameHasInvisibleCharacters(fullName.trim())) return ACCOUNT_MESSAGES.nameInvisible;
  return undefined;
}

export function mobileError(mobile: string, requiredMessage: string = MESSAGES.signUp.mobileRequired): string | undefined {
  if (!mobile.trim()) return requiredMessage;
  if (length(mobile) > LIMITS.mobile || !normalizeMobile(mobile)) return ACCOUNT_MESSAGES.mobileInvalid;
  return undefined;
}

export interface TSignUpFields {
  fullName: string;
  email: string;
  mobile: string;
  password: string;
  /** Only the form has it; the API's body (spec §3) does not. */
  confirmPassword?: string;
}

/**
 * spec §5, in its order: name, email (required, then shape), mobile, password
 * (required, then length), confirmation (its message on both password fields).
 * The terms box is not a field error: it keeps the button disabled (canSubmitSignUp).
 */
export function validateSignUp(v: TSignUpFields): FieldErrors<keyof TSignUpFields> {
  const e: FieldErrors<keyof TSignUpFields> = {};
  const name = fullNameError(v.fullName);
  if (name) e.fullName = name;
  if (!v.email.trim()) e.email = MESSAGES.signUp.emailRequired;
  else if (!isAccountEmailShaped(v.email)) e.email = MESSAGES.signUp.emailInvalid;
  const mobile = mobileError(v.mobile);
  if (mobile) e.mobile = mobile;
  const password = passwordError(v.password);
  if (password) e.password = password;
  if (v.confirmPassword !== undefined && !password && v.confirmPassword !== v.password) {
    e.password = MESSAGES.signUp.passwordMismatch;
    e.confirmPassword = MESSAGES.signUp.passwordMismatch;
  }
  return e;
}

/** spec §5.6: the Sign Up button stays disabled until the terms box is ticked. */
export function canSubmitSignUp(termsAccepted: boolean): boolean {
  return termsAccepted === true;
}

// ---------------------------------------------------------------------------
// Profile, password change and reset

export interface TProfileFields {
  fullName: string;
  mobile: string;
}

export function validateProfile(v: TProfileFields): FieldErrors<keyof TProfileFields> {
  const e: FieldErrors<keyof TProfileFields> = {};
  const name = fullNameError(v.fullName);
  if (name) e.fullName = name;
  const mobile = mobileError(v.mobile);
  if (mobile) e.mobile = mobile;
  return e;
}

export interface TPasswordChangeFields {
  currentPassword: string;
  newPassword: string;
  confirmPassword?: string;
}

export function validatePasswordChange(v: TPasswordChangeFields): FieldErrors<keyof TPasswordChangeFields> {
  const e: FieldErrors<keyof TPasswordChangeFields> = {};
  if (!v.currentPassword) e.currentPassword = ACCOUNT_MESSAGES.currentPasswordRequired;
  const next = passwordError(v.newPassword);
  if (next) e.newPassword = next;
  else if (v.currentPassword && v.newPassword === v.currentPassword) e.newPassword = ACCOUNT_MESSAGES.newPasswordSame;
  if (v.confirmPassword !== undefined && !e.newPassword && v.confirmPassword !== v.newPassword) {
    e.newPassword = MESSAGES.signUp.passwordMismatch;
    e.confirmPassword = MESSAGES.signUp.passwordMismatch;
  }
  return e;
}

export interface TPasswordResetFields {
  password: string;
  confirmPassword?: string;
}

export function validatePasswordReset(v: TPasswordResetFields): FieldErrors<keyof TPasswordResetFields> {
  const e: FieldErrors<keyof TPasswordResetFields> = {};
  const p = passwordError(v.password);
  if (p) e.password = p;
  if (v.confirmPassword !== undefined && !p && v.confirmPassword !== v.password) {
    e.password = MESSAGES.signUp.passwordMismatch;
    e.confirmPassword = MESSAGES.signUp.passwordMismatch;
  }
  return e;
}

/** The forgot-password form: the same email rules as sign-up. */
export function validateForgot(v: { email: string }): FieldErrors<'email'> {
  if (!v.email.trim()) return { email: MESSAGES.signUp.emailRequired };
  if (!isAccountEmailShaped(v.email)) return { email: MESSAGES.signUp.emailInvalid };
  return {};
}

// ---------------------------------------------------------------------------
// Delivery addresses

export interface TAddressFields {
  fullName: string;
  phone: string;
  division: string;
  district: string;
  area: string;
  addressLine: string;
  label?: string | null;
}

export function validateAddress(v: TAddressFields): FieldErrors<keyof TAddressFields> {
  const e: FieldErrors<keyof TAddressFields> = {};
  if (!v.fullName.trim()) e.fullName = ACCOUNT_MESSAGES.addressNameRequired;
  else if (length(v.fullName.trim()) > LIMITS.fullName) e.fullName = ACCOUNT_MESSAGES.fullNameTooLong;
  else if (nameHasInvisibleCharacters(v.fullName.trim())) e.fullName = ACCOUNT_MESSAGES.nameInvisible;
  const phone = mobileError(v.phone, ACCOUNT_MESSAGES.addressPhoneRequired);
  if (phone) e.phone = phone;
  if (!isDivision(v.division)) e.division = ACCOUNT_MESSAGES.divisionRequired;
  if (!isDistrictOf(v.division, v.district)) e.district = ACCOUNT_MESSAGES.districtRequired;
  if (!v.area.trim()) e.area = ACCOUNT_MESSAGES.areaRequired;
  else if (length(v.area.trim()) > LIMITS.area) e.area = ACCOUNT_MESSAGES.tooLong(LIMITS.area);
  if (!v.addressLine.trim()) e.addressLine = ACCOUNT_MESSAGES.addressLineRequired;
  else if (length(v.addressLine.trim()) > LIMITS.addressLine) e.addressLine = ACCOUNT_MESSAGES.tooLong(LIMITS.addressLine);
  if (v.label && length(v.label.trim()) > LIMITS.label) e.label = ACCOUNT_MESSAGES.tooLong(LIMITS.label);
  return e;
}

// ---------------------------------------------------------------------------
// Limits and keys of the account's data (the API's schemas are in account-schemas.ts)

export const SUBSCRIPTION_STATUSES = ['SUBSCRIBED', 'NOT_SUBSCRIBED'] as const;

/** Most addresses a customer keeps. */
export const MAX_ADDRESSES = 20;

/** Most items one wishlist holds. */
export const MAX_WISHLIST_ITEMS = 500;

/** spec §7: the wishlist is read 10 at a time, newest first. */
export const WISHLIST_SEARCH = {
  page: 1,
  size: PAGE_SIZE.wishlist,
  fetchCount: true,
  textParams: [],
  sortParams: [{ field: 'dateCreated', type: 'DESC' as const }],
};

export const wishlistKey = (itemId: number, skuCode: string) => `${itemId}:${skuCode}`;
