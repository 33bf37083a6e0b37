export function TelegramPanel() {
  return (
    <section aria-labelledby="telegram-heading" className="card">
      <h2 id="telegram-heading">Telegram alert routing</h2>
      <p className="muted">Coming in a later release.</p>
    </section>
  );
}
