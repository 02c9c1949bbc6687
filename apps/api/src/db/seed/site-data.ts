// Demo site settings and content. Every brand detail is a setting (decisions.md).

export const KVPS: Record<string, string> = {
  'brand.name': 'Nibash Furniture',
  'brand.tagline': 'Furniture made for Bangladeshi homes since 1998',
  'contact.hotline': '16770',
  'contact.hotlineInternational': '+880 9612 016770',
  'contact.supportEmail': 'support@nibash.com.bd',
  'contact.orderEmail': 'orders@nibash.com.bd',
  'contact.address': 'House 42, Road 11, Gulshan-1, Dhaka 1212',
  'social.facebook': 'https://www.facebook.com/nibashfurniture',
  'social.instagram': 'https://www.instagram.com/nibashfurniture',
  'social.youtube': 'https://www.youtube.com/@nibashfurniture',
  'social.linkedin': 'https://www.linkedin.com/company/nibashfurniture',
  'company.tin': 'TIN 482915736104',
  'company.bin': 'BIN 004518273-0101',
  'company.tradeLicence': 'Trade Licence TRAD/DNCC/041578/2019',
  'payment.logos': 'visa,mastercard,amex,bkash,nagad,rocket',
  'payment.sslLogo': 'ssl',
};

const P = (s: string) => s.trim().replace(/^ +/gm, '');

export const PAGES: { slug: string; title: string; body: string }[] = [
  {
    slug: 'about',
    title: 'About Us',
    body: P(`
      Nibash Furniture has made furniture for Bangladeshi homes since 1998. What started as a small workshop in Gazipur is now a factory of 600 craftspeople and six showrooms across Dhaka, Chattogram and Sylhet.

      ## What we make
      - Sofas, beds, dining sets and wardrobes built from seasoned teak, oak and mahogany
      - Office furniture for homes and companies
      - Kids furniture with rounded edges and non-toxic finishes

      ## How we work
      Every piece is built to order or from our own stock, checked by hand before it leaves the factory, and delivered and assembled by our own team. Our furniture carries a five-year warranty on the frame.
    `),
  },
  {
    slug: 'privacy-policy',
    title: 'Privacy Policy',
    body: P(`
      This policy explains what we collect when you shop with us and how we use it.

      ## What we collect
      - Your name, email address and mobile number when you create an account
      - Delivery addresses you save
      - Orders, bookings and payment status (we never see or store your card number; payments are handled by our payment provider)

      ## How we use it
      We use your details to deliver your orders, to tell you about their progress and, only if you subscribe, to send you offers. We do not sell your data.

      ## Your choices
      You can change your profile and addresses at any time from your account, and unsubscribe from offers with one click. To delete your account, write to our support mailbox.
    `),
  },
  {
    slug: 'terms-conditions',
    title: 'Terms and Conditions',
    body: P(`
      By placing an order you agree to these terms.

      ## Prices and payment
      All prices are in Bangladeshi taka (BDT) and include VAT. Prices shown in other currencies are for guidance; you are always charged in BDT.

      ## Orders and bookings
      An order is confirmed once payment is verified, or at once for cash on delivery. A booking reserves items for you to pay later at a showroom or by bank transfer; you may cancel a booking until it is delivered.

      ## Delivery
      We deliver inside Bangladesh. Delivery dates are estimates and we will call you before we come.
    `),
  },
  {
    slug: 'return',
    title: 'Return and Refund Policy',
    body: P(`
      We want you to love your furniture. If something is wrong, we will put it right.

      ## Returns
      - Tell us within 7 days of delivery if an item arrives damaged or is not what you ordered.
      - We collect the item and replace it or refund you in full.
      - Made-to-order items can be returned only if they are faulty.

      ## Refunds
      Refunds go back to the card or account you paid with, within 10 working days of collection.
    `),
  },
  {
    slug: 'coming-soon',
    title: 'Coming Soon',
    body: P(`
      We are preparing this page. In the meantime, call our hotline 16770 or visit one of our showrooms and we will be glad to help.
    `),
  },
  {
    slug: 'delivery-shipping',
    title: 'Delivery and Shipping Information',
    body: P(`
      We deliver and assemble every piece with our own team.

      ## Where and when
      - Dhaka city: within 3 to 5 days
      - Chattogram and Sylhet: within 5 to 7 days
      - Elsewhere in Bangladesh: within 7 to 10 days

      ## Charges
      Delivery is free inside Dhaka city for orders above ৳20,000. Elsewhere a delivery charge is shown at checkout before you pay.

      ## On the day
      Our team calls you before they come, carries the furniture in, assembles it and takes the packaging away.
    `),
  },
];
