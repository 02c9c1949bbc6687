import { MESSAGES, type TCustomer, type TUploadedFile } from '@storefront/shared';
import { useState } from 'react';
import { useRevalidator, useRouteLoaderData } from 'react-router';
import { apiFetch } from '../../lib/api-client.ts';
import { useT } from '../../lib/i18n.tsx';
import { translateMessage } from '../../lib/translate-message.ts';
import { session } from '../../lib/session-store.ts';
import { toast } from '../../lib/toast.ts';
import { FileUploadField } from '../files/file-upload-field.tsx';
import { Avatar } from './account-slots.tsx';
import type { ShellUser } from './shell-user.ts';

/** A profile picture need not be large; the files endpoint itself takes up to 50 MB. */
const MAX_PICTURE_BYTES = 10 * 1024 * 1024;

/**
 * The profile picture: uploaded with the shop's one upload helper (POST /api/files, with a
 * progress bar and Cancel), then made the picture with PATCH /api/customers/images.
 */
export function ProfileImageUpload({ customer }: { customer: TCustomer }) {
  const root = useRouteLoaderData('root') as { user?: ShellUser | null } | undefined;
  const revalidator = useRevalidator();
  const [imageUrl, setImageUrl] = useState(customer.imageUrl);
  const [error, setError] = useState<string | null>(null);
  const l = useT();
  const { t } = l;

  async function use(file: TUploadedFile) {
    setError(null);
    const res = await apiFetch<TCustomer>('/api/customers/images', { method: 'PATCH', body: { uuid: file.uuid } });
    if (!res.ok) {
      if (res.status === 401) session.expired();
      setError(
        res.networkError
          ? t(MESSAGES.network.unreachable)
          : (translateMessage(l, res.error?.message) ?? t('The picture could not be saved. Please try again.')),
      );
      toast.error(t('The picture could not be saved'));
      return;
    }
    setImageUrl(res.data.imageUrl);
    session.updateUser({ imageUrl: res.data.imageUrl }, root?.user ?? null);
    toast.success(t('Your profile picture has been updated'));
    revalidator.revalidate();
  }

  return (
    <div className="mt-4 flex flex-col gap-5 sm:flex-row sm:items-start">
      <Avatar user={{ name: customer.fullName, imageUrl }} size={96} />
      <div className="min-w-0 flex-1">
        <FileUploadField
          label={t('Profile picture')}
          type="image"
          maxBytes={MAX_PICTURE_BYTES}
          buttonText={imageUrl ? t('Change picture') : t('Upload a picture')}
          onUploaded={use}
        />
        {error && (
          <p role="alert" className="mt-2 text-sm font-medium text-danger-600">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
