import { type FormEvent, useState } from 'react';
import { MAX_TRUCKS_PER_ORDER, MIN_TRUCKS_PER_ORDER } from '../../../shared/constants';
import { SAND_TYPES, type SandType } from '../../../shared/enums';
import { useFormat } from '../../i18n/format';
import { useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { Alert, SelectField, TextField } from '../../ui/forms';
import { QuoteLine } from '../quote/QuoteLine';
import { useQuote } from '../quote/useQuote';

const EMPTY = {
  name: '',
  email: '',
  phone: '',
  site: '',
  sandType: 'coarse' as SandType,
  trucks: '1',
  distance: '',
  dateNeeded: '',
  customerId: '',
  perTruckOverride: '',
  overnightPour: false,
  kraPin: '',
};

/** The collapsible New Order form: an order taken by phone, priced by distance or an override. */
export function NewOrderForm() {
  const { t } = useStaffT();
  const { orderStatus, sandType } = useFormat();
  const utils = trpc.useUtils();
  const [form, setForm] = useState(EMPTY);
  const [done, setDone] = useState<string | null>(null);
  const trucks = Math.min(MAX_TRUCKS_PER_ORDER, Math.max(MIN_TRUCKS_PER_ORDER, Number(form.trucks) || 1));
  const { quote, failed } = useQuote({
    site: form.site,
    trucks,
    sandType: form.sandType,
    distance: form.distance,
  });
  const create = trpc.admin.orders.create.useMutation({
    onSuccess: (order) => {
      setDone(
        t('newOrder.created', {
          id: order.id,
          status:
            order.status === 'AWAITING_PAYMENT'
              ? t('newOrder.awaitingConfirmation')
              : orderStatus(order.status),
        }),
      );
      setForm(EMPTY);
      void utils.admin.orders.list.invalidate();
    },
  });
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    setDone(null);
    create.mutate({
      name: form.name,
      email: form.email,
      phone: form.phone,
      site: form.site,
      sandType: form.sandType,
      trucks,
      ...(form.distance ? { distanceKm: Number(form.distance) } : {}),
      ...(form.dateNeeded ? { dateNeeded: form.dateNeeded } : {}),
      ...(form.customerId ? { customerId: Number(form.customerId) } : {}),
      ...(form.perTruckOverride ? { perTruckOverride: Number(form.perTruckOverride) } : {}),
      ...(form.overnightPour ? { overnightPour: true } : {}),
      ...(form.kraPin.trim() ? { kraPin: form.kraPin } : {}),
    });
  }

  return (
    <details className="card">
      <summary>{t('newOrder.title')}</summary>
      <form onSubmit={submit} noValidate>
        {create.error ? <Alert>{errorMessage(create.error, t('newOrder.failed'))}</Alert> : null}
        {done ? <Alert tone="success">{done}</Alert> : null}
        <div className="grid">
          <TextField label={t('newOrder.customerName')} value={form.name} onChange={set('name')} />
          <TextField
            label={t('newOrder.customerPhone')}
            type="tel"
            value={form.phone}
            onChange={set('phone')}
          />
          <TextField
            label={t('newOrder.customerEmail')}
            type="email"
            value={form.email}
            onChange={set('email')}
          />
          <TextField
            label={t('newOrder.customerAccount')}
            inputMode="numeric"
            value={form.customerId}
            onChange={set('customerId')}
          />
        </div>
        <TextField
          label={t('newOrder.kraPin')}
          autoCapitalize="characters"
          value={form.kraPin}
          onChange={set('kraPin')}
        />
        <TextField label={t('orders.site')} value={form.site} onChange={set('site')} />
        <div className="grid">
          <SelectField
            label={t('orders.sand')}
            value={form.sandType}
            onChange={(e) => setForm((f) => ({ ...f, sandType: e.target.value as SandType }))}
          >
            {SAND_TYPES.map((sand) => (
              <option key={sand} value={sand}>
                {sandType(sand)}
              </option>
            ))}
          </SelectField>
          <TextField
            label={t('orders.trucks')}
            type="number"
            min={1}
            max={20}
            value={form.trucks}
            onChange={set('trucks')}
          />
          <TextField
            label={t('newOrder.distance')}
            type="number"
            min={0}
            step="0.1"
            value={form.distance}
            onChange={set('distance')}
          />
          <TextField
            label={t('newOrder.dateNeeded')}
            type="date"
            value={form.dateNeeded}
            onChange={set('dateNeeded')}
          />
          <label className="checkbox">
            <input
              type="checkbox"
              checked={form.overnightPour}
              onChange={(e) => setForm((f) => ({ ...f, overnightPour: e.target.checked }))}
            />
            {t('newOrder.overnight')}
          </label>
          <TextField
            label={t('newOrder.override')}
            type="number"
            min={1}
            step="1"
            value={form.perTruckOverride}
            onChange={set('perTruckOverride')}
          />
        </div>
        {failed ? <Alert tone="warning">{t('newOrder.quoteFailed')}</Alert> : null}
        {quote && !failed ? <QuoteLine quote={quote} /> : null}
        <button type="submit" className="button" disabled={create.isPending}>
          {create.isPending ? t('newOrder.creating') : t('newOrder.create')}
        </button>
      </form>
    </details>
  );
}
