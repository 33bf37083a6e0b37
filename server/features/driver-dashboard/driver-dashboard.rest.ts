import type { RestRoute } from '../../rest-types';

export const driverDashboardRest: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/driver/dashboard',
    procedure: 'driver.dashboard',
    summary: "A driver's week: stats, loads, leaderboard, trucks",
  },
  {
    method: 'PUT',
    path: '/api/driver/profile',
    procedure: 'driver.updateProfile',
    summary: "The signed-in driver's details and photos",
    bodyLimit: 8 * 1024 * 1024,
  },
];
