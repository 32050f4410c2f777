/** The app's one query cache: the screens' (QueryClientProvider) and the routes' checks (router context). */
import { QueryClient } from "@tanstack/react-query";

export const queries = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });
