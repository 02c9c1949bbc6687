import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

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
  route('orders/invoice.pdf', 'routes/invoice-pdf.ts'),
  route('robots.txt', 'routes/robots.ts'),
  // The back office (docs/decisions/0031): its own modules and stylesheet, never loaded by a shopper's page.
  route('admin/sign-in', 'routes/admin/sign-in.tsx'),
  route('admin/invite', 'routes/admin/invite.tsx'),
  route('admin/products.csv', 'routes/admin/products-csv.ts'),
  route('admin/orders.csv', 'routes/admin/orders-csv.ts'),
  route('admin/orders/:id/print', 'routes/admin/order-print.tsx'),
  layout('routes/admin/layout.tsx', [
    route('admin', 'routes/admin/home.tsx'),
    route('admin/orders', 'routes/admin/orders.tsx'),
    route('admin/orders/:id', 'routes/admin/order.tsx'),
    route('admin/customers', 'routes/admin/customers.tsx'),
    route('admin/customers/:id', 'routes/admin/customer.tsx'),
    route('admin/delivery', 'routes/admin/delivery.tsx'),
    // Promotions
    // Content
    // Subscribers, messages and mail
    // Settings and currencies
    route('admin/products', 'routes/admin/products.tsx'),
    route('admin/products/new', 'routes/admin/product-edit.tsx', { id: 'admin-product-new' }),
    route('admin/products/:id', 'routes/admin/product-edit.tsx', { id: 'admin-product' }),
    route('admin/categories', 'routes/admin/categories.tsx'),
    route('admin/attributes', 'routes/admin/attributes.tsx'),
    route('admin/prices', 'routes/admin/prices.tsx'),
    route('admin/import', 'routes/admin/import.tsx'),
    route('admin/stock', 'routes/admin/stock.tsx'),
    route('admin/staff', 'routes/admin/staff.tsx'),
    route('admin/audit', 'routes/admin/audit.tsx'),
    route('admin/account', 'routes/admin/account.tsx'),
  ]),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
