import { isChunkLoadError } from '@storefront/shared';
import { type DetailedHTMLProps, type HTMLAttributes, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { handleChunkLoadError } from '../lib/build-freshness.ts';
import { metaT, useT } from '../lib/i18n.tsx';
import { brandName, type SiteSettings } from '../lib/site.ts';
import type { Route } from './+types/sofa-3d';

// The <model-viewer> element of @google/model-viewer, as React sees it.
type ModelViewerElement = HTMLElement & {
  cameraOrbit: string;
  fieldOfView: string;
  cameraTarget: string;
  loaded: boolean;
  modelIsVisible: boolean;
  canActivateAR: boolean;
  zoom(keyPresses: number): void;
  jumpCameraToGoal(): void;
  resetTurntableRotation(theta?: number): void;
  activateAR(): Promise<void>;
};
declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'model-viewer': DetailedHTMLProps<HTMLAttributes<ModelViewerElement>, ModelViewerElement> & Record<string, unknown>;
    }
  }
}

/** The project's own sofa, a .glb drawn from boxes by the server (apps/api/src/modules/media/sofa-model.ts). */
const SOFA_MODEL_URL = '/media/models/sofa.glb';
const START_ORBIT = '-30deg 75deg auto';

export function meta({ matches }: Route.MetaArgs) {
  const brand = brandName((matches[0]?.data as { settings?: SiteSettings } | undefined)?.settings ?? {});
  const { t } = metaT(matches);
  return [
    { title: t('Sofa in 3D — {brand}', { brand }) },
    { name: 'description', content: t('Turn, zoom and place our three-seater sofa in your room before you buy.') },
  ];
}

/**
 * /sofa-3d (spec §2): a 3D viewer. @google/model-viewer is about 1 MB and needs the
 * browser (it defines a custom element), so it is imported in an effect, into a chunk of
 * its own, and never during server rendering (stack-notes.md).
 */
export default function Sofa3d() {
  const viewer = useRef<ModelViewerElement>(null);
  const [state, setState] = useState<'loading-viewer' | 'loading-model' | 'ready' | 'failed'>('loading-viewer');
  const { t } = useT();

  useEffect(() => {
    let live = true;
    import('@google/model-viewer')
      .then(() => live && setState((s) => (s === 'loading-viewer' ? 'loading-model' : s)))
      .catch(async (error) => {
        // After a deploy the old chunk is gone: the build-freshness rules may reload.
        if (isChunkLoadError(error) && (await handleChunkLoadError())) return;
        if (live) setState('failed');
      });
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    const el = viewer.current;
    if (!el) return;
    const onLoad = () => setState('ready');
    const onError = () => setState('failed');
    el.addEventListener('load', onLoad);
    el.addEventListener('error', onError);
    if (el.loaded) setState('ready');
    return () => {
      el.removeEventListener('load', onLoad);
      el.removeEventListener('error', onError);
    };
  }, []);

  function reset() {
    const el = viewer.current;
    if (!el) return;
    el.cameraOrbit = START_ORBIT;
    el.cameraTarget = 'auto auto auto';
    el.fieldOfView = 'auto';
    el.resetTurntableRotation?.(0);
  }

  return (
    <div className="container-page py-8 md:py-12">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight md:text-4xl">{t('Sofa in 3D')}</h1>
          <p className="mt-2 max-w-2xl text-ink-muted">
            {t('Drag to turn the sofa, pinch or scroll to zoom, and on a phone that supports it, place it in your own room.')}
          </p>
        </div>
        <Link to="/shop?categoryName=Sofas" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
          {t('Browse sofas')}
        </Link>
      </div>

      <div className="relative mt-6 overflow-hidden rounded-[var(--radius-card)] bg-gradient-to-b from-sand-100 to-sand-200 shadow-[var(--shadow-card)]">
        <model-viewer
          ref={viewer}
          src={SOFA_MODEL_URL}
          alt={t('A three-seater sofa in teal fabric with wooden legs')}
          camera-controls=""
          touch-action="pan-y"
          camera-orbit={START_ORBIT}
          min-camera-orbit="auto auto 2.2m"
          max-camera-orbit="auto 95deg 8m"
          shadow-intensity="1"
          exposure="1.05"
          interaction-prompt="auto"
          ar=""
          ar-modes="webxr scene-viewer quick-look"
          ar-scale="fixed"
          data-testid="sofa-viewer"
          data-state={state}
          style={{ display: 'block', width: '100%', height: 'min(70vh, 560px)', minHeight: 320, background: 'transparent' }}
        >
          {/* Our own loading message below replaces the default progress bar. */}
          <div slot="progress-bar" />
          {/* Shown by model-viewer only where AR is available (Android Scene Viewer, iOS Quick Look, WebXR). */}
          <button
            slot="ar-button"
            type="button"
            className="absolute bottom-4 left-1/2 inline-flex h-11 -translate-x-1/2 items-center rounded-full bg-brand-700 px-5 font-semibold text-white shadow-lg hover:bg-brand-800"
          >
            {t('View in your room')}
          </button>
        </model-viewer>

        {state !== 'ready' && state !== 'failed' && (
          <p role="status" className="pointer-events-none absolute inset-0 flex items-center justify-center text-ink-muted">
            {t('Loading the 3D sofa…')}
          </p>
        )}
        {state === 'failed' && (
          <div role="alert" className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-sand-100 p-6 text-center">
            <p className="font-semibold">{t('The 3D viewer could not be loaded.')}</p>
            <p className="text-ink-muted">{t('Please check your connection and reload the page.')}</p>
          </div>
        )}
      </div>

      <div className="mt-4 flex flex-wrap gap-2" role="group" aria-label={t('View controls')}>
        <Button variant="secondary" onClick={() => viewer.current?.zoom(3)} disabled={state !== 'ready'}>
          {t('Zoom in')}
        </Button>
        <Button variant="secondary" onClick={() => viewer.current?.zoom(-3)} disabled={state !== 'ready'}>
          {t('Zoom out')}
        </Button>
        <Button variant="secondary" onClick={reset} disabled={state !== 'ready'}>
          {t('Reset view')}
        </Button>
      </div>
      <p className="mt-3 text-sm text-ink-muted">{t('Keyboard: focus the viewer, then use the arrow keys to turn and + or − to zoom.')}</p>
    </div>
  );
}
