/**
 * The landing page's parts that call the API, in one chunk with the API layer. The server renders them
 * into the page; the browser hydrates them once this chunk has arrived, after the rest of the page.
 */
import { ApiProvider } from '../../api';
import type { PaymentOptionView } from '../../ui/PaymentOptions';
import { ChatWidget } from '../chat/ChatWidget';
import { GuestOrderForm } from './GuestOrderForm';
import { ProjectInsights } from './ProjectInsights';

export function OrderFormIsland({ paymentOptions }: { paymentOptions: PaymentOptionView[] }) {
  return (
    <ApiProvider>
      <GuestOrderForm paymentOptions={paymentOptions} />
    </ApiProvider>
  );
}

export function ChatIsland(props: { phone: string; context?: string }) {
  return (
    <ApiProvider>
      <ChatWidget {...props} />
    </ApiProvider>
  );
}

export function InsightsIsland() {
  return (
    <ApiProvider>
      <ProjectInsights />
    </ApiProvider>
  );
}
