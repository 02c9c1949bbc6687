// User-facing texts of the specification (§5, §8), word for word except for the
// typo fixes settled in decisions.md.

export const MESSAGES = {
  signIn: {
    userNameRequired: 'Please Give Your User Name',
    passwordTooShort: 'Password Must Be More Than Six Character',
    alreadyLoggedIn: 'Your Mobile or Email is already associated with another account',
    wrongUser: 'Wrong Email or Mobile No',
    wrongPassword: 'Wrong Password',
  },
  signUp: {
    fullNameRequired: 'Please Give Your First Name',
    emailRequired: 'Please Give Your Email',
    emailInvalid: 'Please Give a Correct Email',
    mobileRequired: 'Please Give Your Mobile No',
    passwordRequired: 'Please Give A Password',
    passwordTooShort: 'Password Must Be More Than Six Character',
    passwordMismatch: 'Password and Confirm Password not Match',
    duplicateEmail: 'Email already Used, Please Give an Another Email',
  },
  subscription: {
    emailRequired: 'Please Provide Your Email',
    emailInvalid: 'Please Provide a Correct Email',
    success: 'Subscription Successful',
    already: 'Already Subscribed with this email',
    failed: 'Failed to Subscribe',
  },
  network: {
    unreachable: 'We could not reach the shop. Please check your connection and try again.',
  },
  notFound: (path: string) => `Page not found: ${path}`,
  uploadUnsupported: (source: string) => `File uploading from ${source} is not supported`,
} as const;

export const ERROR_PAGE_DEFAULTS = {
  404: { statusMessage: 'Page Not Found' },
  500: { statusMessage: 'Internal Server Error' },
} as const;
