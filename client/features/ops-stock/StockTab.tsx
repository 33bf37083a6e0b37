import { type FormEvent, useState } from 'react';
import { STOCK_CSV_HEADER, toCsv } from '../../../shared/domain/csv';
import { formatKes } from '../../../shared/domain/format';
import { STOCK_MESSAGES, type TStockTx } from '../../../shared/schemas/stock';
import { errorMessage, trpc } from '../../trpc';
import { downloadText } from '../../ui/download';
import { Alert, SelectField, TextField } from '../../ui/forms';
import type { TabProps } from '../ops/tab-props';

const when = new Intl.DateTimeFormat('en-KE', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: 'Africa/Nairobi',
});

function NoteCell({ tx }: { tx: TStockTx }) {
  const utils = trpc.useUtils();
  const [value, setValue] = useState(tx.reason ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = trpc.admin.stock.updateNote.useMutation({
    onSuccess: () => {
      setSaved(true);
      void utils.admin.stock.transactions.invalidate();
    },
    onError: (e) => setError(errorMessage(e, 'Failed to update transaction.')),
  });
  return (
    <div className="inline-form">
      <input
        aria-label={`Note for transaction ${tx.id}`}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setSaved(false);
        }}
      />
      <button
        type="button"
        className="button button--small button--secondary"
        disabled={save.isPending}
        onClick={() => {
          setError(null);
          if (!value.trim()) return setError(STOCK_MESSAGES.note);
          save.mutate({ id: tx.id, reason: value });
        }}
      >
        Save note
      </button>
      {saved ? <span className="muted">Saved</span> : null}
      {error ? (
        <span role="alert" className="field__error">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** Yard stock: summary, receipt form, movements (ADMIN edits notes and exports CSV; OPS views and receives). */
export function StockTab({ role }: TabProps) {
  const utils = trpc.useUtils();
  const stock = trpc.admin.stock.get.useQuery();
  const txs = trpc.admin.stock.transactions.useQuery();
  const trucks = trpc.admin.trucks.list.useQuery();
  const [form, setForm] = useState({
    truckId: '',
    trucks: '',
    category: 'coarse' as 'coarse' | 'smooth',
    costPerTonne: '',
    description: 'Yard receipt',
  });
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [csvError, setCsvError] = useState<string | null>(null);
  const receipt = trpc.admin.stock.receipt.useMutation({
    onSuccess: (tx) => {
      setMessage({ tone: 'success', text: `Recorded ${tx.tonnes} t of ${tx.category} sand.` });
      setForm((f) => ({ ...f, trucks: '', costPerTonne: '' }));
      void utils.admin.stock.invalidate();
    },
    onError: (e) =>
      setMessage({
        tone: 'error',
        text: errorMessage(
          e,
          role === 'ADMIN' ? 'Failed to record stock receipt.' : 'Failed to record receipt.',
        ),
      }),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    setMessage(null);
    const trucksIn = Number(form.trucks);
    const cost = Number(form.costPerTonne);
    if (!form.truckId) return setMessage({ tone: 'error', text: STOCK_MESSAGES.truckRequired });
    if (!(trucksIn > 0)) return setMessage({ tone: 'error', text: STOCK_MESSAGES.trucks });
    if (!(cost > 0)) return setMessage({ tone: 'error', text: STOCK_MESSAGES.costPerTonne });
    receipt.mutate({
      truckId: form.truckId,
      trucks: trucksIn,
      category: form.category,
      costPerTonne: cost,
      ...(role === 'ADMIN' ? { description: form.description || 'Yard receipt' } : {}),
    });
  }

  function exportCsv() {
    setCsvError(null);
    const rows = txs.data ?? [];
    if (rows.length === 0) return setCsvError('There are no stock transactions to export.');
    downloadText(
      'stock-transactions.csv',
      toCsv(
        STOCK_CSV_HEADER,
        rows.map((t) => [
          t.created_at,
          t.kind,
          t.trucks,
          t.tonnes,
          t.category,
          t.truck_id ?? '',
          t.reason ?? '',
        ]),
      ),
    );
  }

  const s = stock.data;
  return (
    <section aria-labelledby="stock-heading">
      <h2 id="stock-heading">Stock</h2>
      {stock.error || txs.error ? <Alert>Failed to load stock data.</Alert> : null}
      {s ? (
        <div className="grid">
          <div className="card stat">
            <span className="stat__label">{s.yard_name}</span>
            <strong className="stat__value">{s.tonnes.toLocaleString('en-KE')} t</strong>
            <span className="muted">
              {s.trucks_total} truck loads of {s.unit_tonnes} t
            </span>
          </div>
          <div className="card stat">
            <span className="stat__label">Coarse</span>
            <strong className="stat__value">{s.trucks_coarse} loads</strong>
          </div>
          <div className="card stat">
            <span className="stat__label">Smooth</span>
            <strong className="stat__value">{s.trucks_smooth} loads</strong>
          </div>
        </div>
      ) : null}
      <form className="card" onSubmit={submit} noValidate>
        <h3>Record a receipt</h3>
        {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
        <div className="grid">
          <SelectField
            label="Truck receiving stock"
            value={form.truckId}
            onChange={(e) => setForm((f) => ({ ...f, truckId: e.target.value }))}
          >
            <option value="">Select truck…</option>
            {(trucks.data ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.plate || t.id}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Trucks received"
            type="number"
            min={0.01}
            step="0.01"
            value={form.trucks}
            onChange={(e) => setForm((f) => ({ ...f, trucks: e.target.value }))}
          />
          <SelectField
            label="Category"
            value={form.category}
            onChange={(e) => setForm((f) => ({ ...f, category: e.target.value as 'coarse' | 'smooth' }))}
          >
            <option value="coarse">Coarse</option>
            <option value="smooth">Smooth</option>
          </SelectField>
          <TextField
            label="Cost per tonne (KES)"
            type="number"
            min={0.01}
            step="0.01"
            value={form.costPerTonne}
            onChange={(e) => setForm((f) => ({ ...f, costPerTonne: e.target.value }))}
          />
          {role === 'ADMIN' ? (
            <TextField
              label="Description"
              value={form.description}
              onChange={(e) => setForm((f) => ({ ...f, description: e.target.value }))}
            />
          ) : null}
        </div>
        {Number(form.trucks) > 0 && Number(form.costPerTonne) > 0 ? (
          <p className="muted">
            {Math.round(Number(form.trucks) * 20 * 100) / 100} t · purchase cost{' '}
            {formatKes(Number(form.trucks) * 20 * Number(form.costPerTonne))}
          </p>
        ) : null}
        <button type="submit" className="button" disabled={receipt.isPending}>
          {receipt.isPending ? 'Recording…' : 'Record receipt'}
        </button>
      </form>
      <div className="toolbar">
        <h3 style={{ margin: 0 }}>Transactions</h3>
        {role === 'ADMIN' ? (
          <button type="button" className="button button--small button--secondary" onClick={exportCsv}>
            Export CSV
          </button>
        ) : null}
      </div>
      {csvError ? <Alert>{csvError}</Alert> : null}
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>When</th>
              <th>Kind</th>
              <th>Trucks</th>
              <th>Tonnes</th>
              <th>Category</th>
              <th>Truck</th>
              <th>Note</th>
            </tr>
          </thead>
          <tbody>
            {(txs.data ?? []).map((t) => (
              <tr key={t.id}>
                <td>{when.format(new Date(t.created_at))}</td>
                <td>{t.kind}</td>
                <td>{t.trucks}</td>
                <td>{t.tonnes}</td>
                <td>{t.category}</td>
                <td>{t.truck_id ?? '-'}</td>
                <td>{role === 'ADMIN' ? <NoteCell tx={t} /> : (t.reason ?? '')}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {txs.data && txs.data.length === 0 ? <p className="muted">No stock movements yet.</p> : null}
      </div>
    </section>
  );
}
