import { AuthRoute } from '../components/account/auth-page.tsx';
import { SignUpForm } from '../components/account/sign-up-form.tsx';

export const meta = () => [{ title: 'Create Your Account' }, { name: 'robots', content: 'noindex' }];

/** spec §2 "/sign-up": the sign-up modal's form as a page. */
export default function SignUpPage() {
  return (
    <AuthRoute title="Create Your Account" intro="Save your wishlist and addresses, and follow your orders.">
      {({ switchTo, done }) => <SignUpForm onSwitch={() => switchTo('/sign-in')} onDone={done} />}
    </AuthRoute>
  );
}
