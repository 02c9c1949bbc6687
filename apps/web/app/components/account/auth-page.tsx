import type { ReactNode } from 'react';
import { useNavigate, useRouteLoaderData, useSearchParams } from 'react-router';
import { useT } from '../../lib/i18n.tsx';
import { safeRedirect } from '../../lib/safe-redirect.ts';
import { useSessionUser } from '../../lib/session-store.ts';
import { ButtonLink } from '../ui/button.tsx';
import type { ShellUser } from './shell-user.ts';

/** A narrow card page for the account forms (/sign-in, /sign-up, forgot and reset password). */
export function AuthPage({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <section className="container-page flex justify-center py-10 md:py-16">
      <div className="w-full max-w-lg rounded-[var(--radius-card)] border border-sand-200 bg-paper p-5 shadow-[var(--shadow-card)] md:p-8">
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">{title}</h1>
        {intro && <p className="mt-2 text-ink-muted">{intro}</p>}
        <div className="mt-6">{children}</div>
      </div>
    </section>
  );
}

/**
 * /sign-in and /sign-up: a signed-in visitor is offered the way on; otherwise the form is
 * rendered with helpers to switch forms (keeping the query) and to leave once done.
 */
export function AuthRoute({
  title,
  intro,
  children,
}: {
  title: string;
  intro: string;
  children(ctx: { switchTo(path: string): void; go(path: string): void; done(): void }): ReactNode;
}) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const root = useRouteLoaderData('root') as { user?: ShellUser | null; publicUrl?: string } | undefined;
  const user = useSessionUser(root?.user ?? null);
  const { t } = useT();
  // Only a path of the shop itself (lib/safe-redirect.ts); the same on the server and in the browser.
  const next = safeRedirect(params.get('redirectTo'), { origin: root?.publicUrl });
  const query = params.toString() ? `?${params}` : '';

  if (user) {
    return (
      <AuthPage title={t('You are signed in')} intro={t('Signed in as {name}.', { name: user.name })}>
        <ButtonLink to={next}>{t('Continue')}</ButtonLink>
      </AuthPage>
    );
  }
  return (
    <AuthPage title={title} intro={intro}>
      {children({
        switchTo: (path) => navigate(`${path}${query}`),
        go: (path) => navigate(path),
        done: () => navigate(next, { replace: true }),
      })}
    </AuthPage>
  );
}
