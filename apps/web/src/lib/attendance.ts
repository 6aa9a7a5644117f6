import type { TAttendanceRecordInput } from "@app/shared";
import { berlinDate } from "@app/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { trpc } from "./trpc";

/** what this tab has recorded already today: the server keeps one row per day anyway, this saves requests */
const recorded = new Set<string>();

/**
 * Records the visitor's attendance when they open a video or the webinar link. Fire and forget: the
 * server checks access; a refusal must not get in the way of the video.
 */
export function useRecordAttendance(): (input: TAttendanceRecordInput) => void {
  const queryClient = useQueryClient();
  const { mutate } = useMutation(
    trpc.attendance.record.mutationOptions({
      onSuccess: (result) => {
        if (result.recorded) {
          // the overview lists attended events (their confirmation buttons)
          void queryClient.invalidateQueries({ queryKey: trpc.congress.getOverview.queryKey() });
        }
      },
    }),
  );
  return useCallback(
    (input) => {
      const key = `${input.congressId}:${input.packageId ?? ""}:${input.source}:${berlinDate()}`;
      if (recorded.has(key)) {
        return;
      }
      recorded.add(key);
      mutate(input, { onError: () => recorded.delete(key) });
    },
    [mutate],
  );
}
