import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { STOCK_CSV_HEADER, toCsv } from '../../../shared/domain/csv';
import { formatDateTime, formatNumber, formatTonnes, plural } from '../../../shared/domain/format';
import {
  type TStockReceiptInput,
  type TStockTx,
  ZStockReceiptInput,
  ZStockTxNoteInput,
} from '../../../shared/schemas/stock';
import { isQueued, submitField } from '../../offline/outbox';
import { errorMessage, trpc } from '../../trpc';
import { DataList } from '../../ui/DataList';
import { downloadText } from '../../ui/download';
import { Alert, FormStatus, SelectField, TextField } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { StatCard } from '../../ui/StatCard';
import { useZodForm } from '../../ui/useZodForm';
import type { TabProps } from '../ops/tab-props';

function NoteCell({ tx }: { tx: TStockTx }) {
  const utils = trpc.useUtils();
  const form = useZodForm({
    schema: ZStockTxNoteInput,
    initial: { reason: tx.reason ?? '' },
    toInput: (v) => ({ id: tx.id, reason: v.reason }),
  });
  const [saved, setSaved] = useState(false);
  const save = trpc.admin.stock.updateNote.useMutation({
    onSuccess: () => {
      setSaved(true);
      void utils.admin.stock.transactions.invalidate();
    },
    onError: (e) => form.report('error', errorMessage(e, 'Failed to update transaction.')),
  });
  const { onChange, ...note } = form.field('reason');
  return (
    <div className="inline-form">
      <input
        aria-label={`Note for transaction ${tx.id}`}
        {...note}
        onChange={(e) => {
          onChange(e);
          setSaved(false);
        }}
      />
      <button
        type="button"
        className="button button--small button--secondary"
        disabled={save.isPending}
        onClick={form.submit((input) => save.mutate(input))}
      >
        Save note
      </button>
      {saved ? <span className="muted">Saved</span> : null}
      {form.message?.tone === 'error' ? (
        <span role="alert" className="field__error">
          {form.message.text}
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
  const form = useZodForm({
    schema: ZStockReceiptInput,
    initial: {
      truckId: '',
      trucks: '',
      category: 'coarse' as 'coarse' | 'smooth',
      costPerTonne: '',
      description: 'Yard receipt',
    },
    toInput: ({ description, ...f }) => ({
      ...f,
      ...(role === 'ADMIN' ? { description: description || 'Yard receipt' } : {}),
    }),
  });
  const [csvError, setCsvError] = useState<string | null>(null);
  // Through the device outbox (client/offline/outbox.ts): kept on the phone when it cannot be sent.
  const receipt = useMutation({
    networkMode: 'always',
    mutationFn: (input: TStockReceiptInput) =>
      submitField<TStockTx>(
        'stock',
        input,
        `${input.trucks} trucks ${input.category} · ${input.truckId} · KES ${input.costPerTonne}/t`,
      ),
    onSuccess: (tx) => {
      form.report('success', `Recorded ${tx.tonnes} t of ${tx.category} sand.`);
      form.patch({ trucks: '', costPerTonne: '' });
      void utils.admin.stock.invalidate();
    },
    onError: (e) => {
      if (isQueued(e)) {
        form.patch({ trucks: '', costPerTonne: '' });
        return form.report('success', e.message);
      }
      form.report(
        'error',
        errorMessage(e, role === 'ADMIN' ? 'Failed to record stock receipt.' : 'Failed to record receipt.'),
      );
    },
  });

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
  const plates = new Map((trucks.data ?? []).map((t) => [t.id, t.plate || t.id]));
  return (
    <section aria-labelledby="stock-heading">
      <h2 id="stock-heading">Stock</h2>
      {stock.error || txs.error ? <Alert>Failed to load stock data.</Alert> : null}
      {s ? (
        <div className="grid">
          <StatCard
            label={s.yard_name}
            value={formatTonnes(s.tonnes)}
            note={`${plural(s.trucks_total, 'truck load')} of ${formatTonnes(s.unit_tonnes)}`}
          />
          <StatCard label="Coarse" value={plural(s.trucks_coarse, 'load')} />
          <StatCard label="Smooth" value={plural(s.trucks_smooth, 'load')} />
        </div>
      ) : null}
      <form className="card" onSubmit={form.submit((input) => receipt.mutate(input))} noValidate>
        <h3>Record a receipt</h3>
        <FormStatus message={form.message} />
        <div className="grid">
          <SelectField label="Truck receiving stock" {...form.field('truckId')}>
            <option value="">Select truck…</option>
            {(trucks.data ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.plate || t.id}
              </option>
            ))}
          </SelectField>
          <TextField label="Trucks received" type="number" min={0.01} step="0.01" {...form.field('trucks')} />
          <SelectField label="Category" {...form.field('category')}>
            <option value="coarse">Coarse</option>
            <option value="smooth">Smooth</option>
          </SelectField>
          <TextField
            label="Cost per tonne (KES)"
            type="number"
            min={0.01}
            step="0.01"
            {...form.field('costPerTonne')}
          />
          {role === 'ADMIN' ? <TextField label="Description" {...form.field('description')} /> : null}
        </div>
        {Number(form.values.trucks) > 0 && Number(form.values.costPerTonne) > 0 ? (
          <p className="muted">
            {formatTonnes(Math.round(Number(form.values.trucks) * 20 * 100) / 100)} · purchase cost{' '}
            <Money value={Number(form.values.trucks) * 20 * Number(form.values.costPerTonne)} />
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
      <DataList
        label="Stock transactions"
        rows={txs.data ?? []}
        rowKey={(t) => t.id}
        title={(t) => `${t.kind} · ${formatDateTime(t.created_at, 'short')}`}
        columns={[
          { header: 'When', cell: (t) => formatDateTime(t.created_at, 'short'), hideOnCard: true },
          { header: 'Kind', cell: (t) => t.kind, hideOnCard: true },
          { header: 'Trucks', numeric: true, cell: (t) => formatNumber(t.trucks) },
          { header: 'Tonnes', numeric: true, cell: (t) => formatTonnes(t.tonnes) },
          { header: 'Category', cell: (t) => t.category },
          { header: 'Truck', cell: (t) => (t.truck_id ? (plates.get(t.truck_id) ?? t.truck_id) : '-') },
          {
            header: 'Note',
            cell: (t) => (role === 'ADMIN' ? <NoteCell tx={t} /> : (t.reason ?? '')),
          },
        ]}
        empty={txs.data ? 'No stock movements yet.' : null}
      />
    </section>
  );
}
