// Content for product pages: guides and selling points aimed at categories
// (fields.categories holds category slugs; they show on products filed under any of them),
// and help texts for attributes (type attr-text, slug = the attribute's name).

const article = (slug: string, title: string, body: string, categories: string[], sort_order: number) => ({
  type: 'article',
  title,
  slug,
  body,
  fields: JSON.stringify({ categories }),
  sort_order,
});

const bullet = (slug: string, title: string, categories: string[], sort_order: number) => ({
  type: 'bullet',
  title,
  slug,
  body: '',
  fields: JSON.stringify({ categories }),
  sort_order,
});

export const CATALOGUE_CONTENT = [
  article(
    'fabric-care',
    'Looking after fabric and velvet upholstery',
    'Vacuum the cushions every week with a soft brush and turn them over so they wear evenly. Blot a spill at once with a dry white cloth; never rub. In the monsoon months keep the sofa a hand away from the wall so air can move behind it.',
    ['sofas', 'armchairs'],
    10,
  ),
  article(
    'choosing-a-mattress',
    'Choosing the right mattress',
    'Lie on it for ten minutes in the position you sleep in. A side sleeper needs a softer top than someone who sleeps on their back. Measure the bed frame before you order: our sizes are in inches, as the bed makers in Bangladesh use.',
    ['mattresses', 'beds'],
    11,
  ),
  article(
    'solid-wood-care',
    'Solid wood through the seasons',
    'Wood moves with the humidity. Keep it out of direct sun and away from air-conditioner outlets, dust it with a dry cloth, and oil it twice a year. A small gap in a drawer in the dry months closes again in the wet ones.',
    ['dining', 'bedroom', 'storage'],
    12,
  ),
  article(
    'ergonomic-desk',
    'Setting up a desk your back will thank you for',
    'Your elbows should rest at the height of the desk, the top of the screen at eye level, and your feet flat on the floor. Stand up and walk for a few minutes every hour.',
    ['office', 'kids'],
    13,
  ),
  bullet('frame-warranty-sofa', 'Kiln-dried hardwood frame with a five-year warranty', ['sofas', 'armchairs'], 10),
  bullet('removable-covers', 'Cushion covers come off for cleaning', ['sofas'], 11),
  bullet('termite-treated', 'Termite-treated timber, finished by hand', ['bedroom', 'dining', 'storage'], 12),
  bullet('assembly-included', 'Delivered and assembled by our own team', ['office', 'kids', 'bedroom', 'living-room', 'dining', 'storage'], 13),
  {
    type: 'attr-text',
    title: 'Size guide',
    slug: 'size',
    body: 'Bed and mattress sizes are in inches (width x length). Table and desk sizes give the length of the top. Seater counts are for adults sitting comfortably.',
    fields: '{}',
    sort_order: 0,
  },
  {
    type: 'attr-text',
    title: 'About colours',
    slug: 'color',
    body: 'Colours on screen differ a little from fabric and wood in daylight. Visit a showroom to see the swatches, or ask us to send samples.',
    fields: '{}',
    sort_order: 1,
  },
];
