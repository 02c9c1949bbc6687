import { type ComponentProps, forwardRef } from 'react';
import { Link, type LinkProps } from 'react-router';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';
type Size = 'sm' | 'md' | 'lg';

const base =
  'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-50 select-none';
const variants: Record<Variant, string> = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800',
  secondary: 'border border-sand-300 bg-paper text-ink hover:bg-sand-100',
  ghost: 'text-ink hover:bg-sand-100',
  danger: 'bg-danger-600 text-white hover:bg-red-800',
};
const sizes: Record<Size, string> = {
  sm: 'h-9 px-3 text-sm',
  md: 'h-11 px-4 text-[0.95rem]',
  lg: 'h-12 px-6 text-base',
};

export function buttonClass(variant: Variant = 'primary', size: Size = 'md', extra = '') {
  return `${base} ${variants[variant]} ${sizes[size]} ${extra}`.trim();
}

export const Button = forwardRef<HTMLButtonElement, ComponentProps<'button'> & { variant?: Variant; size?: Size }>(function Button(
  { variant, size, className = '', type = 'button', ...props },
  ref,
) {
  return <button ref={ref} type={type} className={buttonClass(variant, size, className)} {...props} />;
});

export function ButtonLink({ variant, size, className = '', ...props }: LinkProps & { variant?: Variant; size?: Size }) {
  return <Link className={buttonClass(variant, size, className)} {...props} />;
}

/** A square button holding only an icon; `label` is what screen readers hear. */
export const IconButton = forwardRef<HTMLButtonElement, ComponentProps<'button'> & { label: string }>(function IconButton(
  { label, className = '', type = 'button', children, ...props },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      aria-label={label}
      title={label}
      className={`relative inline-flex h-11 w-11 items-center justify-center rounded-full text-ink hover:bg-sand-100 ${className}`}
      {...props}
    >
      {children}
    </button>
  );
});
