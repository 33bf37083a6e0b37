import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useNavigate } from 'react-router';
import { AppRoutes } from './routes';
import { createQueryClient, createTrpcClient, setSessionLostHandler, trpc } from './trpc';
import { Header } from './ui/Header';
import './ui/styles.css';

function SessionWatcher() {
  const navigate = useNavigate();
  useEffect(() => {
    setSessionLostHandler(() => navigate('/login', { replace: true }));
  }, [navigate]);
  return null;
}

function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <SessionWatcher />
          <Header />
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </trpc.Provider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
