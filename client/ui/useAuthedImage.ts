import { useEffect, useState } from 'react';
import { getSession } from '../session';

/** Uploaded files need the bearer token, which an <img src> cannot send: fetch them and show a blob URL. */
export function useAuthedImage(name: string | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!name) {
      setUrl(null);
      return;
    }
    let objectUrl: string | null = null;
    let cancelled = false;
    const token = getSession()?.token;
    fetch(`/api/uploads/${encodeURIComponent(name)}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    })
      .then((r) => (r.ok ? r.blob() : null))
      .then((blob) => {
        if (!blob || cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => setUrl(null));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [name]);
  return url;
}

/** Reads a picked file as a data URL; rejects non-images. */
export function readImageFile(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!file.type.startsWith('image/')) {
      reject(new Error('Only images can be uploaded.'));
      return;
    }
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('Failed to load the selected file.'));
    reader.readAsDataURL(file);
  });
}
