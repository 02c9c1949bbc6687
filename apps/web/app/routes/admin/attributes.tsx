import type { TAdminAttribute } from '@storefront/shared';
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, inputClass, Notice } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/attributes';
import { may, useAdminSession } from './layout.tsx';

// Attributes and their options (docs/decisions/0031): the labels shoppers see in filters and
// on product pages; an option renamed here is renamed on every sku that has it.

export function meta() {
  return [{ title: 'Attributes · Back office' }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  return adminRead<{ items: TAdminAttribute[] }>(context, request, '/api/admin/attributes');
}

export default function Attributes({ loaderData }: Route.ComponentProps) {
  const canWrite = may(useAdminSession(), 'catalogue.write');
  const revalidator = useRevalidator();
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);

  const save = async (path: string, method: string, body: unknown, done: string) => {
    const r = await apiFetch(path, { method, body });
    setMessage(r.ok ? { tone: 'success', text: done } : { tone: 'error', text: r.error?.message ?? 'Not saved' });
    revalidator.revalidate();
  };

  return (
    <AdminPage title="Attributes" description="Size, colour and the other choices a product's skus differ by.">
      <div className="flex flex-col gap-6">
        {message && <Notice tone={message.tone}>{message.text}</Notice>}
        {loaderData.items.map((a) => (
          <Card key={a.id} title={a.label}>
            <form
              className="mb-4 flex flex-wrap items-end gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                const label = String(new FormData(e.currentTarget).get('label') ?? '');
                save(`/api/admin/attributes/${a.id}`, 'PUT', { label, version: a.version }, `The attribute is called “${label.trim()}” now.`);
              }}
            >
              <label className="flex flex-col gap-1 text-sm font-medium">
                Label shoppers see
                <input name="label" className={`${inputClass} max-w-64`} defaultValue={a.label} disabled={!canWrite} />
              </label>
              {canWrite && (
                <button type="submit" className="h-10 rounded-lg border border-sand-300 px-3 text-sm font-semibold hover:bg-sand-100">
                  Save label
                </button>
              )}
              <span className="text-xs text-ink-muted">Name in files and filters: {a.name}</span>
            </form>
            <table className="w-full border-collapse text-sm">
              <caption className="sr-only">Options of {a.label}</caption>
              <thead>
                <tr className="border-b border-sand-200 text-left">
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Option
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-semibold">
                    Skus
                  </th>
                </tr>
              </thead>
              <tbody>
                {a.values.map((v) => (
                  <tr key={v.value} className="border-b border-sand-100 last:border-0">
                    <td className="py-1.5 pr-3">
                      {canWrite ? (
                        <form
                          className="flex flex-wrap items-center gap-2"
                          onSubmit={(e) => {
                            e.preventDefault();
                            const label = String(new FormData(e.currentTarget).get('option') ?? '');
                            save(`/api/admin/attributes/${a.id}/values/rename`, 'POST', { value: v.value, displayLabel: label }, `Renamed on ${v.skus} skus.`);
                          }}
                        >
                          <input
                            name="option"
                            aria-label={`Label of the option ${v.displayLabel}`}
                            className={`${inputClass} max-w-64`}
                            defaultValue={v.displayLabel}
                          />
                          <button type="submit" className="h-9 rounded-md border border-sand-300 px-2 text-xs font-semibold hover:bg-sand-100">
                            Rename
                          </button>
                          <span className="text-xs text-ink-muted">{v.value}</span>
                        </form>
                      ) : (
                        v.displayLabel
                      )}
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{v.skus}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        ))}
      </div>
    </AdminPage>
  );
}
