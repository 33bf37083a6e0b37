import { type FormEvent, useState } from 'react';
import { orderStatusLabel } from '../../../shared/domain/format';
import { errorMessage, trpc } from '../../trpc';
import { Alert, SelectField, TextField } from '../../ui/forms';
import { QuoteLine } from '../quote/QuoteLine';
import { useQuote } from '../quote/useQuote';

const EMPTY = {
  name: '',
  email: '',
  phone: '',
  site: '',
  sandType: 'coarse' as 'coarse' | 'smooth',
  trucks: '1',
  distance: '',
  dateNeeded: '',
  customerId: '',
  perTruckOverride: '',
  overnightPour: false,
};

/** The collapsible New Order form: an order taken by phone, priced by distance or an override. */
export function NewOrderForm() {
  const utils = trpc.useUtils();
  const [form, setForm] = useState(EMPTY);
  const [done, setDone] = useState<string | null>(null);
  const trucks = Math.min(20, Math.max(1, Number(form.trucks) || 1));
  const { quote, failed } = useQuote({
    site: form.site,
    trucks,
    sandType: form.sandType,
    distance: form.distance,
  });
  const create = trpc.admin.orders.create.useMutation({
    onSuccess: (order) => {
      setDone(
        `Order #${order.id} created. ${orderStatusLabel(order.status) === 'Awaiting Payment' ? 'Awaiting payment confirmation' : orderStatusLabel(order.status)}.`,
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
    });
  }

  return (
    <details className="card">
      <summary>New Order</summary>
      <form onSubmit={submit} noValidate>
        {create.error ? <Alert>{errorMessage(create.error, 'Failed to create order.')}</Alert> : null}
        {done ? <Alert tone="success">{done}</Alert> : null}
        <div className="grid">
          <TextField label="Customer name" value={form.name} onChange={set('name')} />
          <TextField label="Customer phone" type="tel" value={form.phone} onChange={set('phone')} />
          <TextField label="Customer email" type="email" value={form.email} onChange={set('email')} />
          <TextField
            label="Customer account ID (optional)"
            inputMode="numeric"
            value={form.customerId}
            onChange={set('customerId')}
          />
        </div>
        <TextField label="Site" value={form.site} onChange={set('site')} />
        <div className="grid">
          <SelectField
            label="Sand"
            value={form.sandType}
            onChange={(e) => setForm((f) => ({ ...f, sandType: e.target.value as 'coarse' | 'smooth' }))}
          >
            <option value="coarse">Coarse</option>
            <option value="smooth">Smooth</option>
          </SelectField>
          <TextField
            label="Trucks"
            type="number"
            min={1}
            max={20}
            value={form.trucks}
            onChange={set('trucks')}
          />
          <TextField
            label="Distance (km, optional)"
            type="number"
            min={0}
            step="0.1"
            value={form.distance}
            onChange={set('distance')}
          />
          <TextField label="Date needed" type="date" value={form.dateNeeded} onChange={set('dateNeeded')} />
          <label className="checkbox">
            <input
              type="checkbox"
              checked={form.overnightPour}
              onChange={(e) => setForm((f) => ({ ...f, overnightPour: e.target.checked }))}
            />
            Overnight pour requested (delivery outside 06:00–18:00)
          </label>
          <TextField
            label="Per-truck price override (KES, optional)"
            type="number"
            min={1}
            step="1"
            value={form.perTruckOverride}
            onChange={set('perTruckOverride')}
          />
        </div>
        {failed ? <Alert tone="warning">Unable to refresh quote</Alert> : null}
        {quote && !failed ? <QuoteLine quote={quote} /> : null}
        <button type="submit" className="button" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create order'}
        </button>
      </form>
    </details>
  );
}
