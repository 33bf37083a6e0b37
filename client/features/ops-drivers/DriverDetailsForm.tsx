import { type ReactNode, useState } from 'react';
import type { z } from 'zod';
import {
  type TDriver,
  type TDriverProfileInput,
  ZDriverCreateInput,
  ZDriverProfileInput,
} from '../../../shared/schemas/fleet';
import { useTranslation } from '../../i18n';
import { errorMessage } from '../../trpc';
import { FormStatus, TextField } from '../../ui/forms';
import { ImageInput } from '../../ui/ImageInput';
import { useAuthedImage } from '../../ui/useAuthedImage';
import { useZodForm } from '../../ui/useZodForm';

type DriverShown = Omit<TDriver, 'updatedAt'>;

/** A new driver's details also need an id the directory has not seen. */
const ZNewDriver = ZDriverProfileInput.extend({ id: ZDriverCreateInput.shape.id });
type DriverDetails = TDriverProfileInput & { id?: string };

const fieldsOf = (d: DriverShown | null) => ({
  id: d?.id ?? '',
  name: d?.name ?? '',
  email: d?.email ?? '',
  phone: d?.phone ?? '',
  nationalIdData: null as string | null,
  photoData: null as string | null,
});
type DriverFields = ReturnType<typeof fieldsOf>;

/** Email and phone are sent as null when blank; photos as data URLs, only when one was picked. */
const toInput = (f: DriverFields) => ({
  ...(f.id ? { id: f.id } : {}),
  name: f.name,
  email: f.email.trim() || null,
  phone: f.phone.trim() || null,
  ...(f.nationalIdData ? { nationalIdData: f.nationalIdData } : {}),
  ...(f.photoData ? { photoData: f.photoData } : {}),
});

/**
 * A driver's details (Name, Email, Phone, National ID photo, Profile photo): the admin's driver
 * directory (with the Driver ID, fixed once created) and the profile form of /driver.
 */
export function DriverDetailsForm({
  driver,
  withId = false,
  heading,
  labelledBy,
  submitLabel,
  savingLabel,
  savedText,
  failedText,
  save,
  onSaved,
  children,
}: {
  /** The driver edited; null while the directory adds one. */
  driver: DriverShown | null;
  withId?: boolean;
  heading: ReactNode;
  labelledBy?: string;
  submitLabel: string;
  savingLabel: string;
  savedText: string;
  failedText: string;
  save: (details: DriverDetails) => Promise<TDriver>;
  onSaved?: (driver: TDriver) => void;
  /** More buttons beside Save. */
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const creating = driver === null;
  const schema: z.ZodType<DriverDetails> = creating ? ZNewDriver : ZDriverProfileInput;
  const form = useZodForm({
    schema,
    initial: () => fieldsOf(driver),
    toInput,
    // English keeps the schema's wording; Kiswahili says the same per field.
    messages:
      i18n.language === 'sw'
        ? {
            name: t('driverForm.validName'),
            email: t('driverForm.validEmail'),
            phone: t('driverForm.validPhone'),
            nationalIdData: t('driverForm.validPhoto'),
            photoData: t('driverForm.validPhoto'),
          }
        : undefined,
  });
  const [saving, setSaving] = useState(false);
  // A saved photo is the current one: a new picker replaces the chosen file and its preview.
  const [pickers, setPickers] = useState(0);
  const photo = useAuthedImage(driver?.photoPath);
  const nationalId = useAuthedImage(driver?.nationalIdPath);

  const submit = form.submit(async (details) => {
    setSaving(true);
    try {
      const saved = await save(details);
      form.reset(fieldsOf(saved));
      setPickers((n) => n + 1);
      form.report('success', savedText);
      onSaved?.(saved);
    } catch (err) {
      form.report('error', errorMessage(err, failedText));
    } finally {
      setSaving(false);
    }
  });

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby={labelledBy}>
      {heading}
      <FormStatus message={form.message} />
      <div className="grid">
        {withId ? <TextField label={t('driverForm.id')} disabled={!creating} {...form.field('id')} /> : null}
        <TextField label={t('driverForm.name')} {...form.field('name')} />
        <TextField label={t('driverForm.email')} type="email" {...form.field('email')} />
        <TextField label={t('driverForm.phone')} type="tel" placeholder="07XX..." {...form.field('phone')} />
        <ImageInput
          key={`id-${pickers}`}
          label={t('driverForm.nationalId')}
          currentUrl={nationalId}
          onChange={(dataUrl) => form.set('nationalIdData', dataUrl)}
          onError={(text) => form.report('error', text)}
        />
        <ImageInput
          key={`photo-${pickers}`}
          label={t('driverForm.photo')}
          currentUrl={photo}
          onChange={(dataUrl) => form.set('photoData', dataUrl)}
          onError={(text) => form.report('error', text)}
        />
      </div>
      <div className="button-row">
        <button type="submit" className="button" disabled={saving}>
          {saving ? savingLabel : submitLabel}
        </button>
        {children}
      </div>
    </form>
  );
}
