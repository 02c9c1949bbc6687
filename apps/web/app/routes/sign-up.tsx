import { AuthRoute } from '../components/account/auth-page.tsx';
import { SignUpForm } from '../components/account/sign-up-form.tsx';
import { metaT, useT } from '../lib/i18n.tsx';
import type { Route } from './+types/sign-up';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaT(matches).t('Create Your Account') }, { name: 'robots', content: 'noindex' }];

/** spec §2 "/sign-up": the sign-up modal's form as a page. */
export default function SignUpPage() {
  const { t } = useT();
  return (
    <AuthRoute title={t('Create Your Account')} intro={t('Save your wishlist and addresses, and follow your orders.')}>
      {({ switchTo, done }) => <SignUpForm onSwitch={() => switchTo('/sign-in')} onDone={done} />}
    </AuthRoute>
  );
}
