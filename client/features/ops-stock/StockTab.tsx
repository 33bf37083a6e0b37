import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { TRUCK_LOAD_TONNES } from '../../../shared/constants';
import { formatNumber, formatTonnes } from '../../../shared/domain/format';
import { SAND_TYPES, type SandType } from '../../../shared/enums';
import {
  type TStockReceiptInput,
  type TStockTx,
  ZStockReceiptInput,
  ZStockTxNoteInput,
} from '../../../shared/schemas/stock';
import { useFormat } from '../../i18n/format';
import { useStaffT } from '../../i18n/staff';
import { isQueued, submitField } from '../../offline/outbox';
import { errorMessage, trpc } from '../../trpc';
import { DataList } from '../../ui/DataList';
import { downloadCsv } from '../../ui/download';
import { Alert, FormStatus, SelectField, TextField } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { StatCard } from '../../ui/StatCard';
import { useZodForm } from '../../ui/useZodForm';
import type { TabProps } from '../ops/tab-props';

/** stock-transactions.csv's columns (spec, CSV exports). */
const STOCK_CSV_HEADER = ['Datetime', 'Kind', 'Trucks', 'Tonnes', 'Category', 'Truck ID', 'Reason'];

function NoteCell({ tx }: { tx: TStockTx }) {
  const { t, i18n } = useStaffT();
  const utils = trpc.useUtils();
  const form = useZodForm({
    schema: ZStockTxNoteInput,
    initial: { reason: tx.reason ?? '' },
    toInput: (v) => ({ id: tx.id, reason: v.reason }),
    // The schema's English messages, in Kiswahili when the screens are.
    messages: i18n.language === 'sw' ? { reason: t('stock.validNote') } : undefined,
  });
  const [saved, setSaved] = useState(false);
  const save = trpc.admin.stock.updateNote.useMutation({
    onSuccess: () => {
      setSaved(true);
      void utils.admin.stock.transactions.invalidate();
    },
    onError: (e) => form.report('error', errorMessage(e, t('stock.updateFailed'))),
  });
  const { onChange, ...note } = form.field('reason');
  return (
    <div className="inline-form">
      <input
        aria-label={t('stock.noteFor', { id: tx.id })}
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
        {t('stock.saveNote')}
      </button>
      {saved ? <span className="muted">{t('stock.saved')}</span> : null}
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
  const { t, i18n } = useStaffT();
  const { sandType, dateTime } = useFormat();
  const kinds: Record<string, string> = {
    RECEIPT: t('stock.kinds.RECEIPT'),
    DELIVERY: t('stock.kinds.DELIVERY'),
    ADJUSTMENT: t('stock.kinds.ADJUSTMENT'),
  };
  const kindLabel = (kind: string) => kinds[kind] ?? kind;
  const utils = trpc.useUtils();
  const stock = trpc.admin.stock.get.useQuery();
  const txs = trpc.admin.stock.transactions.useQuery();
  const trucks = trpc.admin.trucks.list.useQuery();
  const form = useZodForm({
    schema: ZStockReceiptInput,
    initial: {
      truckId: '',
      trucks: '',
      category: 'coarse' as SandType,
      costPerTonne: '',
      description: t('stock.defaultDescription'),
    },
    toInput: ({ description, ...f }) => ({
      ...f,
      ...(role === 'ADMIN' ? { description: description || t('stock.defaultDescription') } : {}),
    }),
    messages:
      i18n.language === 'sw'
        ? {
            truckId: t('stock.validTruck'),
            trucks: t('stock.validTrucks'),
            costPerTonne: t('stock.validCostPerTonne'),
          }
        : undefined,
  });
  const [csvError, setCsvError] = useState<string | null>(null);
  // Through the device outbox (client/offline/outbox.ts): kept on the phone when it cannot be sent.
  const receipt = useMutation({
    networkMode: 'always',
    mutationFn: (input: TStockReceiptInput) =>
      submitField<TStockTx>(
        'stock',
        input,
        t('stock.outboxEntry', {
          trucks: input.trucks,
          category: input.category,
          truck: input.truckId,
          cost: input.costPerTonne,
        }),
      ),
    onSuccess: (tx) => {
      form.report('success', t('stock.recorded', { tonnes: tx.tonnes, category: sandType(tx.category) }));
      form.patch({ trucks: '', costPerTonne: '' });
      void utils.admin.stock.invalidate();
    },
    onError: (e) => {
      if (isQueued(e)) {
        form.patch({ trucks: '', costPerTonne: '' });
        return form.report('success', e.message);
      }
      form.report('error', errorMessage(e, role === 'ADMIN' ? t('stock.failedAdmin') : t('stock.failedOps')));
    },
  });

  function exportCsv() {
    setCsvError(null);
    const rows = txs.data ?? [];
    if (rows.length === 0) return setCsvError(t('stock.nothingToExport'));
    void downloadCsv(
      'stock-transactions.csv',
      STOCK_CSV_HEADER,
      rows.map((tx) => [
        tx.created_at,
        tx.kind,
        tx.trucks,
        tx.tonnes,
        tx.category,
        tx.truck_id ?? '',
        tx.reason ?? '',
      ]),
    ).catch(() => setCsvError(t('common.exportFailed')));
  }

  const s = stock.data;
  const plates = new Map((trucks.data ?? []).map((truck) => [truck.id, truck.plate || truck.id]));
  return (
    <section aria-labelledby="stock-heading">
      <h2 id="stock-heading">{t('tabs.stock')}</h2>
      {stock.error || txs.error ? <Alert>{t('stock.loadFailed')}</Alert> : null}
      {s ? (
        <div className="grid">
          <StatCard
            label={s.yard_name}
            value={formatTonnes(s.tonnes)}
            note={t('stock.truckLoads', { count: s.trucks_total, unit: formatTonnes(s.unit_tonnes) })}
          />
          <StatCard label={sandType('coarse')} value={t('stock.loads', { count: s.trucks_coarse })} />
          <StatCard label={sandType('smooth')} value={t('stock.loads', { count: s.trucks_smooth })} />
        </div>
      ) : null}
      <form className="card" onSubmit={form.submit((input) => receipt.mutate(input))} noValidate>
        <h3>{t('stock.recordReceipt')}</h3>
        <FormStatus message={form.message} />
        <div className="grid">
          <SelectField label={t('stock.truckReceiving')} {...form.field('truckId')}>
            <option value="">{t('stock.selectTruck')}</option>
            {(trucks.data ?? []).map((truck) => (
              <option key={truck.id} value={truck.id}>
                {truck.plate || truck.id}
              </option>
            ))}
          </SelectField>
          <TextField
            label={t('stock.trucksReceived')}
            type="number"
            min={0.01}
            step="0.01"
            {...form.field('trucks')}
          />
          <SelectField label={t('stock.category')} {...form.field('category')}>
            {SAND_TYPES.map((sand) => (
              <option key={sand} value={sand}>
                {sandType(sand)}
              </option>
            ))}
          </SelectField>
          <TextField
            label={t('stock.costPerTonne')}
            type="number"
            min={0.01}
            step="0.01"
            {...form.field('costPerTonne')}
          />
          {role === 'ADMIN' ? (
            <TextField label={t('stock.description')} {...form.field('description')} />
          ) : null}
        </div>
        {Number(form.values.trucks) > 0 && Number(form.values.costPerTonne) > 0 ? (
          <p className="muted">
            {formatTonnes(Math.round(Number(form.values.trucks) * TRUCK_LOAD_TONNES * 100) / 100)} ·{' '}
            {t('stock.purchaseCost')}{' '}
            <Money
              value={Number(form.values.trucks) * TRUCK_LOAD_TONNES * Number(form.values.costPerTonne)}
            />
          </p>
        ) : null}
        <button type="submit" className="button" disabled={receipt.isPending}>
          {receipt.isPending ? t('stock.recording') : t('stock.record')}
        </button>
      </form>
      <div className="toolbar">
        <h3 style={{ margin: 0 }}>{t('stock.transactions')}</h3>
        {role === 'ADMIN' ? (
          <button type="button" className="button button--small button--secondary" onClick={exportCsv}>
            {t('stock.exportCsv')}
          </button>
        ) : null}
      </div>
      {csvError ? <Alert>{csvError}</Alert> : null}
      <DataList
        label={t('stock.listLabel')}
        rows={txs.data ?? []}
        rowKey={(tx) => tx.id}
        title={(tx) => `${kindLabel(tx.kind)} · ${dateTime(tx.created_at, 'short')}`}
        columns={[
          { header: t('stock.when'), cell: (tx) => dateTime(tx.created_at, 'short'), hideOnCard: true },
          { header: t('stock.kind'), cell: (tx) => kindLabel(tx.kind), hideOnCard: true },
          { header: t('orders.trucks'), numeric: true, cell: (tx) => formatNumber(tx.trucks) },
          { header: t('stock.tonnes'), numeric: true, cell: (tx) => formatTonnes(tx.tonnes) },
          { header: t('stock.category'), cell: (tx) => sandType(tx.category) },
          {
            header: t('common.truck'),
            cell: (tx) => (tx.truck_id ? (plates.get(tx.truck_id) ?? tx.truck_id) : '-'),
          },
          {
            header: t('stock.note'),
            cell: (tx) => (role === 'ADMIN' ? <NoteCell tx={tx} /> : (tx.reason ?? '')),
          },
        ]}
        empty={txs.data ? t('stock.none') : null}
      />
    </section>
  );
}
