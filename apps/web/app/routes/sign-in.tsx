import { AuthRoute } from '../components/account/auth-page.tsx';
import { SignInForm } from '../components/account/sign-in-form.tsx';

export const meta = () => [{ title: 'Sign In' }, { name: 'robots', content: 'noindex' }];

/** spec §2 "/sign-in" (route name SignInPage): the sign-in modal's form as a page. */
export default function SignInPage() {
  return (
    <AuthRoute title="Sign In" intro="Sign in with your email or mobile number.">
      {({ switchTo, go, done }) => <SignInForm onSwitch={() => switchTo('/sign-up')} onForgot={() => go('/forgot-password')} onDone={done} />}
    </AuthRoute>
  );
}
