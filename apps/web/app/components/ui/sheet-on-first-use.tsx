import { type ComponentProps, lazy, Suspense } from 'react';
import { useLoadedWhenOpen } from './first-use.tsx';
import type { Sheet } from './sheet.tsx';

const loadSheet = () => import('./sheet.tsx');
const LazySheet = lazy(() => loadSheet().then((m) => ({ default: m.Sheet })));

/**
 * A Sheet whose dialog code loads the first time it opens (decision 0030): the filters of
 * a listing on a phone, which most visits never open. Once loaded it stays mounted, so it
 * can animate closed and return focus.
 */
export function SheetOnFirstUse(props: ComponentProps<typeof Sheet>) {
  const loaded = useLoadedWhenOpen(props.open, loadSheet, () => props.onOpenChange(false));
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <LazySheet {...props} />
    </Suspense>
  );
}
