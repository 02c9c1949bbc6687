import { redirect } from 'react-router';

// The back office opens on its products.
export function loader() {
  return redirect('/admin/products');
}

export default function AdminHome() {
  return null;
}
