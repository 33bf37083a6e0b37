import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from '../../i18n';
import { errorMessage, trpc } from '../../trpc';
import { Alert, TextField } from '../../ui/forms';
import { ImageInput } from '../../ui/ImageInput';
import { Sheet } from '../../ui/Sheet';

/** The phone's position, when it gives one quickly; a delivery never waits for it. */
function currentPosition(): Promise<{ lat: number; lng: number } | undefined> {
  if (typeof navigator === 'undefined' || !navigator.geolocation) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), 3000);
    navigator.geolocation.getCurrentPosition(
      (p) => {
        clearTimeout(timer);
        resolve({ lat: p.coords.latitude, lng: p.coords.longitude });
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
      { maximumAge: 60_000, timeout: 3000 },
    );
  });
}

/**
 * Proof of delivery at the site: a photo of the tipped load with the customer's 4-digit delivery code,
 * or, when the customer cannot give it, the receiver's name (operations then checks the delivery).
 */
export function DeliveryProofSheet({
  load,
  onClose,
  onDelivered,
  children,
}: {
  load: { id: number; site: string };
  onClose: () => void;
  onDelivered: () => void;
  /** Below the form: operations' way to the delivery by hand. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [photo, setPhoto] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [receiver, setReceiver] = useState('');
  const [withoutCode, setWithoutCode] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const deliver = trpc.admin.orders.recordDelivery.useMutation();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    if (!photo) return setProblem(t('driver.proofPhotoMissing'));
    if (!withoutCode && !/^\d{4}$/.test(code.trim())) return setProblem(t('driver.proofCodeDigits'));
    if (withoutCode && !receiver.trim()) return setProblem(t('driver.proofReceiverMissing'));
    const position = await currentPosition();
    deliver.mutate(
      {
        id: load.id,
        photoData: photo,
        ...(withoutCode ? { receiverName: receiver.trim() } : { code: code.trim() }),
        ...(position ?? {}),
      },
      { onSuccess: onDelivered },
    );
  }

  const error = problem ?? (deliver.error ? errorMessage(deliver.error, t('driver.proofFailed')) : null);
  return (
    <Sheet title={t('driver.deliverTo', { site: load.site })} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <ImageInput label={t('driver.proofPhoto')} onChange={setPhoto} onError={setProblem} />
        {withoutCode ? (
          <TextField
            label={t('driver.receiver')}
            autoComplete="off"
            value={receiver}
            onChange={(e) => setReceiver(e.target.value)}
            hint={t('driver.receiverHint')}
          />
        ) : (
          <TextField
            label={t('driver.code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={4}
            pattern="[0-9]{4}"
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            hint={t('driver.codeHint')}
          />
        )}
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => {
            setWithoutCode((v) => !v);
            setProblem(null);
          }}
        >
          {withoutCode ? t('driver.useCode') : t('driver.noCode')}
        </button>
        {error ? <Alert>{error}</Alert> : null}
        <div className="sheet__actions">
          <button type="submit" className="button" disabled={deliver.isPending}>
            {deliver.isPending ? t('driver.proofSaving') : t('driver.confirmDelivery')}
          </button>
        </div>
      </form>
      {children}
    </Sheet>
  );
}
