import { CAROUSEL_INTERVAL_MS, swipeStep, type TSlide, wrapIndex } from '@storefront/shared';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useT } from '../../lib/i18n.tsx';
import { ArrowRightIcon } from '../ui/icons.tsx';
import { ChevronLeftIcon, ChevronRightIcon, PauseIcon, PlayIcon } from './catalogue-icons.tsx';
import { ResponsiveImage } from '../ui/responsive-image.tsx';

function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    const q = window.matchMedia('(prefers-reduced-motion: reduce)');
    setReduced(q.matches);
    const on = () => setReduced(q.matches);
    q.addEventListener('change', on);
    return () => q.removeEventListener('change', on);
  }, []);
  return reduced;
}

/**
 * The home carousel (spec §9: a new slide every 5000 ms, a swipe of 40 px moves it). It
 * follows the WAI carousel pattern: previous/next and per-slide buttons, a pause button,
 * rotation paused while the pointer is over it or focus is inside it, and for people who
 * ask for reduced motion it does not turn by itself. Only the shown slide is reachable by
 * keyboard and screen reader; slide changes are announced when the shopper makes them.
 */
export function HeroCarousel({ slides }: { slides: TSlide[] }) {
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [stopped, setStopped] = useState(false);
  const [announce, setAnnounce] = useState(false);
  const reduced = usePrefersReducedMotion();
  const { t, n: num } = useT();
  const start = useRef<{ x: number; y: number; id: number } | null>(null);
  const n = slides.length;
  const rotating = n > 1 && !hovered && !focused && !stopped && !reduced;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the interval restarts after each slide change, so a slide chosen by hand gets its full time.
  useEffect(() => {
    if (!rotating) return;
    const t = setInterval(() => setIndex((i) => wrapIndex(i + 1, n)), CAROUSEL_INTERVAL_MS);
    return () => clearInterval(t);
  }, [rotating, n, index]);

  if (!n) return null;
  const go = (i: number) => {
    setAnnounce(true);
    setIndex(wrapIndex(i, n));
  };

  return (
    <section
      aria-roledescription="carousel"
      aria-label={t('Featured collections')}
      className="relative bg-sand-100"
      data-testid="carousel"
      data-index={index}
      onPointerEnter={(e) => e.pointerType === 'mouse' && setHovered(true)}
      onPointerLeave={(e) => e.pointerType === 'mouse' && setHovered(false)}
      onKeyDown={(e) => {
        // Arrow keys turn the slides wherever focus is inside the carousel.
        if (e.key === 'ArrowRight') go(index + 1);
        else if (e.key === 'ArrowLeft') go(index - 1);
      }}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the swipe area only reads the pointer and cancels the browser's own drag of a picture; keyboard and screen reader users turn the slides with the carousel's buttons and arrow keys. */}
      <div
        className="overflow-hidden"
        style={{ touchAction: 'pan-y' }}
        onPointerDown={(e) => {
          start.current = { x: e.clientX, y: e.clientY, id: e.pointerId };
        }}
        onPointerUp={(e) => {
          const s = start.current;
          start.current = null;
          if (!s || s.id !== e.pointerId) return;
          const step = swipeStep(e.clientX - s.x, e.clientY - s.y);
          if (step) go(index + step);
        }}
        onPointerCancel={() => {
          start.current = null;
        }}
        // A mouse pressed on a slide's picture or link and moved would start the browser's own
        // drag of it: the swipe is cancelled, and the pointer counts as gone, so the paused
        // rotation resumes under the shopper's hand. A swipe is never a drag of the picture.
        onDragStart={(e) => e.preventDefault()}
      >
        <div
          className={`flex ${reduced ? '' : 'transition-transform duration-500 ease-out'}`}
          style={{ transform: `translateX(-${index * 100}%)` }}
          aria-live={announce && !rotating ? 'polite' : 'off'}
        >
          {slides.map((s, i) => {
            const active = i === index;
            return (
              <div
                key={s.id}
                role="group"
                aria-roledescription="slide"
                aria-label={t('{index} of {count}', { index: num(i + 1), count: num(n) })}
                aria-hidden={!active}
                inert={!active}
                className="relative w-full shrink-0"
                data-active={active}
              >
                <ResponsiveImage
                  src={s.image}
                  alt=""
                  width={1600}
                  height={500}
                  // Below md the 16:5 banner fills a taller box (object-cover): it is drawn wider than the screen.
                  sizes="(min-width: 768px) 100vw, (min-width: 640px) 140vw, 240vw"
                  draggable={false}
                  loading={i === 0 ? 'eager' : 'lazy'}
                  fetchPriority={i === 0 ? 'high' : undefined}
                  className="aspect-[4/3] w-full select-none object-cover object-right sm:aspect-[16/7] md:aspect-[16/5]"
                />
                <div className="bg-sand-100 px-5 pb-14 pt-5 md:absolute md:inset-y-0 md:left-0 md:flex md:w-1/2 md:flex-col md:justify-center md:bg-transparent md:px-12 md:pb-6 lg:pl-[max(3rem,calc((100vw-80rem)/2+1.5rem))]">
                  <h2 className="text-2xl font-bold tracking-tight text-ink md:text-4xl lg:text-5xl">{s.title}</h2>
                  <p className="mt-2 max-w-md text-ink-muted md:mt-4 md:text-lg">{s.body}</p>
                  {s.link && (
                    <Link
                      to={s.link}
                      className="mt-4 inline-flex h-11 w-fit items-center gap-2 rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 md:mt-6 md:h-12"
                    >
                      {t('Shop now')} <ArrowRightIcon width={18} height={18} />
                    </Link>
                  )}
                </div>
              </div>
            );
          })}
        </div>
      </div>

      {n > 1 && (
        <div className="absolute inset-x-0 bottom-3 flex items-center justify-center gap-2 md:bottom-5">
          <button
            type="button"
            onClick={() => go(index - 1)}
            aria-label={t('Previous slide')}
            className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-paper/90 text-ink shadow hover:bg-paper"
          >
            <ChevronLeftIcon />
          </button>
          <ul className="flex items-center">
            {slides.map((s, i) => (
              <li key={s.id}>
                <button
                  type="button"
                  onClick={() => go(i)}
                  aria-label={t('Show slide {index}: {title}', { index: num(i + 1), title: s.title })}
                  aria-current={i === index ? 'true' : undefined}
                  className="group inline-flex h-11 w-8 items-center justify-center"
                >
                  <span className={`block h-2.5 rounded-full transition-all ${i === index ? 'w-6 bg-brand-700' : 'w-2.5 bg-ink/40 group-hover:bg-ink/70'}`} />
                </button>
              </li>
            ))}
          </ul>
          <button
            type="button"
            onClick={() => go(index + 1)}
            aria-label={t('Next slide')}
            className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-paper/90 text-ink shadow hover:bg-paper"
          >
            <ChevronRightIcon />
          </button>
          <button
            type="button"
            onClick={() => setStopped((s) => !s)}
            aria-label={stopped ? t('Start automatic slides') : t('Stop automatic slides')}
            className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-paper/90 text-ink shadow hover:bg-paper"
          >
            {stopped ? <PlayIcon width={18} height={18} /> : <PauseIcon width={18} height={18} />}
          </button>
        </div>
      )}
    </section>
  );
}
