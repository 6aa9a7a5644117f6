import {
  checkoutPendingMessage,
  checkoutReturnMessage,
  MSG,
  type ParsedCustom,
  parseCustom,
} from "@app/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { TRPCClientError } from "@trpc/client";
import { LoaderCircleIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { alerts } from "@/lib/alerts";
import { trpc } from "@/lib/trpc";

/** How often and how long the return asks whether the payment notification arrived. */
export const CHECKOUT_POLL_INTERVAL_MS = 2000;
export const CHECKOUT_POLL_DURATION_MS = 30_000;

const isNotFound = (error: unknown) => error instanceof TRPCClientError && error.data?.httpStatus === 404;

function Notice({
  mode,
  title,
  detail,
  busy = false,
  children,
}: {
  mode: "info" | "error";
  title: string;
  detail: string;
  busy?: boolean;
  children?: React.ReactNode;
}) {
  return (
    <Alert mode={mode} role="status" aria-live="polite" className="mb-8 text-base" aria-busy={busy}>
      <p className="flex items-center gap-2 font-semibold">
        {busy && <LoaderCircleIcon aria-hidden="true" className="size-4 shrink-0 animate-spin" />}
        {title}
      </p>
      <p className="mt-1">{detail}</p>
      {children && <div className="mt-3 flex flex-wrap gap-3">{children}</div>}
    </Alert>
  );
}

/**
 * One return from the checkout: asks every 2 s for 30 s whether the payment notification of this purchase
 * arrived (it may come after the visitor). Until then it says the payment is being processed, then thanks
 * with the spec's success dialog for what the server says the purchase unlocked, and refreshes the
 * overview; if nothing came, it says what to do. A product that does not exist gets no thanks.
 */
function PendingReturn({ target, onClose }: { target: ParsedCustom; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [round, setRound] = useState(0);
  const [timedOut, setTimedOut] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each round ("Erneut prüfen") starts the clock anew
  useEffect(() => {
    setTimedOut(false);
    const timer = setTimeout(() => setTimedOut(true), CHECKOUT_POLL_DURATION_MS);
    return () => clearTimeout(timer);
  }, [round]);
  const state = useQuery({
    ...trpc.checkout.getReturnState.queryOptions({ category: target.cat, id: target.pid }),
    staleTime: 0,
    gcTime: 0,
    retry: (failures, error) => !isNotFound(error) && failures < 2,
    refetchInterval: (query) =>
      timedOut || query.state.data?.paid || isNotFound(query.state.error) ? false : CHECKOUT_POLL_INTERVAL_MS,
  });
  const paid = state.data?.paid === true;
  const name = state.data?.name;
  const thanked = useRef(false);
  useEffect(() => {
    const message = state.data && checkoutReturnMessage(target.cat, state.data);
    if (message && !thanked.current) {
      thanked.current = true;
      void queryClient.invalidateQueries({ queryKey: trpc.congress.getOverview.queryKey() });
      void alerts.successDialog(message.title, message.detail);
      onClose();
    }
  }, [state.data, queryClient, target.cat, onClose]);

  if (isNotFound(state.error)) {
    return (
      <Notice mode="error" title={MSG.checkoutUnknownTitle} detail={MSG.checkoutUnknown}>
        <Button variant="secondary" onClick={onClose}>
          Hinweis schließen
        </Button>
      </Notice>
    );
  }
  if (paid) {
    return null;
  }
  if (timedOut) {
    return (
      <Notice mode="info" {...checkoutPendingMessage("delayed", name)}>
        <Button
          onClick={() => {
            setRound((r) => r + 1);
            void state.refetch();
          }}
        >
          Erneut prüfen
        </Button>
        <Button variant="secondary" onClick={onClose}>
          Hinweis schließen
        </Button>
      </Notice>
    );
  }
  return <Notice mode="info" busy {...checkoutPendingMessage("processing", name)} />;
}

/**
 * The return from the checkout carries `custom=pid-..|cat-..`: the address is cleaned at once (a reload
 * does not start it again), and the return is followed while the overview stays usable.
 */
export function CheckoutReturn({ custom }: { custom: string | undefined }) {
  const navigate = useNavigate();
  const [target, setTarget] = useState<ParsedCustom | null>(() => parseCustom(custom));
  useEffect(() => {
    if (custom !== undefined) {
      const parsed = parseCustom(custom);
      if (parsed) {
        setTarget(parsed);
      }
      void navigate({ to: "/", search: {}, replace: true });
    }
  }, [custom, navigate]);
  const close = useRef(() => setTarget(null)).current;
  if (!target) {
    return null;
  }
  return <PendingReturn key={`${target.cat}-${target.pid}`} target={target} onClose={close} />;
}
