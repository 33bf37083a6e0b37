import { Route, Routes } from 'react-router';
import { ArticlesPage } from './features/articles/ArticlesPage';
import { CustomerPage } from './features/customer/CustomerPage';
import { DriverPage } from './features/driver/DriverPage';
import { FuelPage } from './features/fuel/FuelPage';
import { LandingPage } from './features/landing/LandingPage';
import { LoginPage } from './features/login/LoginPage';
import { NotFoundPage } from './features/not-found/NotFoundPage';
import { OpsPage } from './features/ops/OpsPage';
import { OrderPage } from './features/order/OrderPage';
import { RegisterPage } from './features/register/RegisterPage';
import { RequireRole } from './ui/RequireRole';

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<LandingPage />} />
      <Route path="/articles" element={<ArticlesPage />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/register" element={<RegisterPage />} />
      <Route
        path="/order"
        element={
          <RequireRole route="/order">
            <OrderPage />
          </RequireRole>
        }
      />
      <Route
        path="/customer"
        element={
          <RequireRole route="/customer">
            <CustomerPage />
          </RequireRole>
        }
      />
      <Route
        path="/ops"
        element={
          <RequireRole route="/ops">
            <OpsPage />
          </RequireRole>
        }
      />
      <Route
        path="/driver"
        element={
          <RequireRole route="/driver">
            <DriverPage />
          </RequireRole>
        }
      />
      <Route
        path="/fuel"
        element={
          <RequireRole route="/fuel">
            <FuelPage />
          </RequireRole>
        }
      />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
