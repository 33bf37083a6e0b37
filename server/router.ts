import { accountsAdminRouter, accountsCustomerRouter } from './features/accounts/accounts.router';
import { activityRouter } from './features/activity/activity.router';
import { adminOrdersRouter } from './features/admin-orders/admin-orders.router';
import { articlesRouter } from './features/articles/articles.router';
import { auditRouter } from './features/audit/audit.router';
import { authRouter } from './features/auth/auth.router';
import { backupsRouter } from './features/backups/backups.router';
import { chatbotRouter } from './features/chatbot/chatbot.router';
import { costsRouter } from './features/costs/costs.router';
import { dashboardRouter } from './features/dashboard/dashboard.router';
import { driverDashboardRouter } from './features/driver-dashboard/driver-dashboard.router';
import { driversRouter } from './features/drivers/drivers.router';
import { financeRouter } from './features/finance/finance.router';
import { fuelRouter } from './features/fuel/fuel.router';
import { insightsRouter } from './features/insights/insights.router';
import { invoicesRouter } from './features/invoices/invoices.router';
import { messagingRouter } from './features/messaging/messaging.router';
import { mpesaRouter, paymentsAdminRouter } from './features/mpesa/mpesa.router';
import { notificationsRouter } from './features/notifications/notifications.router';
import { ordersRouter } from './features/orders/orders.router';
import { pricingRouter } from './features/pricing/pricing.router';
import { queuesRouter } from './features/queues/queues.router';
import { stockRouter } from './features/stock/stock.router';
import { systemRouter } from './features/system/system.router';
import { telemetryRouter } from './features/telemetry/telemetry.router';
import { trackingRouter } from './features/tracking/tracking.router';
import { tripsRouter } from './features/trips/trips.router';
import { trucksRouter } from './features/trucks/trucks.router';
import { usersRouter } from './features/users/users.router';
import { createCallerFactory, router } from './trpc';

/** One router per domain; each lives in server/features/<domain>/. */
export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
  pricing: pricingRouter,
  orders: ordersRouter,
  telemetry: telemetryRouter,
  driver: driverDashboardRouter,
  fuel: fuelRouter,
  articles: articlesRouter,
  chatbot: chatbotRouter,
  mpesa: mpesaRouter,
  tracking: trackingRouter,
  customers: accountsCustomerRouter,
  admin: router({
    users: usersRouter,
    orders: adminOrdersRouter,
    trucks: trucksRouter,
    drivers: driversRouter,
    stock: stockRouter,
    dashboard: dashboardRouter,
    costs: costsRouter,
    audit: auditRouter,
    finance: financeRouter,
    notifications: notificationsRouter,
    ai: insightsRouter,
    queues: queuesRouter,
    backups: backupsRouter,
    payments: paymentsAdminRouter,
    trips: tripsRouter,
    invoices: invoicesRouter,
    accounts: accountsAdminRouter,
    activity: activityRouter,
    messaging: messagingRouter,
  }),
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
