import type { RestRoute } from '../../rest-types';

export const notificationsRest: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/admin/notification-targets',
    procedure: 'admin.notifications.list',
    summary: 'ADMIN and OPS alert recipients and whether the Telegram bot is configured',
  },
  {
    method: 'PUT',
    path: '/api/admin/notification-targets/:id',
    procedure: 'admin.notifications.update',
    summary: "Set or clear a recipient's Telegram chat id",
  },
];
