import { type RouteConfig, index, route } from '@react-router/dev/routes';

// One module per screen (spec §2). Site pages share one module, each with its own id.
export default [
  index('routes/home.tsx'),
  ...['about', 'privacy-policy', 'terms-conditions', 'return', 'coming-soon', 'delivery-shipping'].map((slug) =>
    route(slug, 'routes/content-page.tsx', { id: `page-${slug}` }),
  ),
  route('contact', 'routes/contact.tsx'),
  route('outlets', 'routes/outlets.tsx'),
  route('showrooms', 'routes/showrooms-redirect.tsx'),
  route('sofa-3d', 'routes/sofa-3d.tsx'),
  route('cart', 'routes/cart.tsx', { id: 'cart' }),
  route('profile', 'routes/profile.tsx', { id: 'profile' }),
  route('sign-in', 'routes/sign-in.tsx', { id: 'SignInPage' }),
  route('sign-up', 'routes/sign-up.tsx'),
  route('forgot-password', 'routes/forgot-password.tsx'),
  route('reset-password', 'routes/reset-password.tsx'),
  // Catalogue: listings, the product page at /details and at its readable address.
  route('shop', 'routes/shop.tsx'),
  route('new-arrival', 'routes/new-arrival.tsx'),
  route('sales', 'routes/sales.tsx'),
  route('details', 'routes/details.tsx'),
  route('products/:slug', 'routes/details.tsx', { id: 'product' }),
  // Checkout, payment outcomes, orders and bookings.
  route('checkout', 'routes/checkout.tsx'),
  ...(['success', 'failed', 'cancel', 'later'] as const).map((outcome) =>
    route(`payments/response/${outcome}`, 'routes/payment-response.tsx', { id: `payment-${outcome}` }),
  ),
  route('orders', 'routes/orders.tsx'),
  route('robots.txt', 'routes/robots.ts'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
