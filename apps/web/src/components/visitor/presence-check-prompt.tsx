import { MSG_PRESENCE, type PresenceCheckAsked } from "@app/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef } from "react";
import { Button } from "@/components/ui/button";
import { trpc } from "@/lib/trpc";
import { presenceChecks, usePresenceCheck, useVideoPlaying } from "@/lib/watch-time/presence-check";

/**
 * "Sind Sie noch da?" (ADR 0109): a panel at the bottom of the page, not a dialog:
 * nothing behind it is blocked and a playing video plays on (the hint says so only while one plays: the
 * check may also come with the heartbeat of a pause). When a check comes, the keyboard focus moves to
 * its button, which screen readers announce with the question (its description); the outcome is
 * announced by the panel's status line. Closing returns the focus where it was (the player, usually).
 */
export function PresenceCheckPrompt() {
  const check = usePresenceCheck();
  if (!check) {
    return null;
  }
  // a new check is a new prompt (fresh answer state, focus moved again)
  return <Prompt key={`${check.congressId}/${check.day}/${check.seq}`} check={check} />;
}

function Prompt({ check }: { check: PresenceCheckAsked }) {
  const titleId = useId();
  const hintId = useId();
  const answerButton = useRef<HTMLButtonElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef<Element | null>(null);
  const queryClient = useQueryClient();
  // a check may come with the heartbeat of a pause: only a playing video is said to play on
  const playing = useVideoPlaying();
  const answer = useMutation(
    trpc.attendance.answerPresenceCheck.mutationOptions({
      // the page's Fortbildung line counts the answer at once, not with the next heartbeat (there is none
      // when the check came after the last second played)
      onSuccess: () =>
        queryClient.invalidateQueries({
          queryKey: trpc.fortbildung.getMyDays.queryKey({ congressId: check.congressId }),
        }),
    }),
  );

  useEffect(() => {
    returnFocus.current = document.activeElement;
    answerButton.current?.focus();
  }, []);
  const answered = answer.data !== undefined;
  useEffect(() => {
    if (answered) {
      closeButton.current?.focus();
    }
  }, [answered]);

  const close = () => {
    presenceChecks.dismiss(check);
    const previous = returnFocus.current;
    if (previous instanceof HTMLElement && previous.isConnected) {
      previous.focus();
    }
  };
  const outcome = answer.data
    ? answer.data.passed
      ? MSG_PRESENCE.passed
      : MSG_PRESENCE.late
    : answer.isError
      ? MSG_PRESENCE.failed
      : "";

  return (
    <section
      aria-labelledby={titleId}
      aria-describedby={answered ? undefined : hintId}
      className="fixed inset-x-3 bottom-3 z-40 mx-auto max-w-md rounded-lg border border-brand-200 bg-white p-4 shadow-lg sm:inset-x-auto sm:right-6 sm:bottom-6"
    >
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        {MSG_PRESENCE.question}
      </h2>
      {!answered && (
        <p id={hintId} className="mt-1 text-sm text-slate-700">
          {playing ? `${MSG_PRESENCE.hint} ${MSG_PRESENCE.playsOn}` : MSG_PRESENCE.hint}
        </p>
      )}
      <p
        role="status"
        className={
          answer.data?.passed === false || answer.isError
            ? "mt-2 text-sm font-semibold text-red-700"
            : "mt-2 text-sm text-green-800"
        }
      >
        {outcome}
      </p>
      <div className="mt-3 flex justify-end gap-2">
        {answered ? (
          <Button ref={closeButton} variant="secondary" onClick={close}>
            {MSG_PRESENCE.close}
          </Button>
        ) : (
          <Button
            ref={answerButton}
            aria-describedby={`${titleId} ${hintId}`}
            disabled={answer.isPending}
            onClick={() => answer.mutate({ congressId: check.congressId, day: check.day, seq: check.seq })}
          >
            {MSG_PRESENCE.answer}
          </Button>
        )}
      </div>
    </section>
  );
}
