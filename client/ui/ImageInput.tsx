import { useId, useState } from 'react';
import { useTranslation } from '../i18n';
import { readImageFile } from './useAuthedImage';

/** readImageFile's English refusals, as the catalog words them. */
const READ_ERRORS: Record<string, string> = {
  'Only images can be uploaded.': 'image.onlyImages',
  'Failed to load the selected file.': 'image.loadFailed',
};

/** An image picker (images only) with a preview of the chosen or current picture. */
export function ImageInput({
  label,
  currentUrl,
  onChange,
  onError,
}: {
  label: string;
  currentUrl?: string | null;
  onChange: (dataUrl: string | null) => void;
  onError: (message: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [preview, setPreview] = useState<string | null>(null);
  const shown = preview ?? currentUrl ?? null;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="file"
        accept="image/*"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (!file) {
            setPreview(null);
            onChange(null);
            return;
          }
          readImageFile(file)
            .then((dataUrl) => {
              setPreview(dataUrl);
              onChange(dataUrl);
            })
            .catch((err: Error) => {
              e.target.value = '';
              setPreview(null);
              onChange(null);
              const key = READ_ERRORS[err.message || 'Failed to load the selected file.'];
              onError(key ? t(key) : err.message);
            });
        }}
      />
      {shown ? <img src={shown} alt={t('image.preview', { label })} className="preview" /> : null}
    </div>
  );
}
