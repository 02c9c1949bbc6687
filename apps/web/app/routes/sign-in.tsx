import { AuthRoute } from '../components/account/auth-page.tsx';
import { SignInForm } from '../components/account/sign-in-form.tsx';
import { metaT, useT } from '../lib/i18n.tsx';
import type { Route } from './+types/sign-in';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaT(matches).t('Sign In') }, { name: 'robots', content: 'noindex' }];

/** spec §2 "/sign-in" (route name SignInPage): the sign-in modal's form as a page. */
export default function SignInPage() {
  const { t } = useT();
  return (
    <AuthRoute title={t('Sign In')} intro={t('Sign in with your email or mobile number.')}>
      {({ switchTo, go, done }) => <SignInForm onSwitch={() => switchTo('/sign-up')} onForgot={() => go('/forgot-password')} onDone={done} />}
    </AuthRoute>
  );
}
