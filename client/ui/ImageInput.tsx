import { useId, useState } from 'react';
import { readImageFile } from './useAuthedImage';

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
              onError(err.message || 'Failed to load the selected file.');
            });
        }}
      />
      {shown ? <img src={shown} alt={`${label} preview`} className="preview" /> : null}
    </div>
  );
}
