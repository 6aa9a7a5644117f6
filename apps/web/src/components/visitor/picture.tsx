import { cn } from "@/lib/utils";

/** An uploaded picture, or a calm brand-coloured area when there is none. */
export function Picture({ fileName, className }: { fileName: string | null; className?: string }) {
  if (!fileName) {
    return (
      <div aria-hidden="true" className={cn("bg-gradient-to-br from-brand-600 to-brand-900", className)} />
    );
  }
  return (
    <img
      src={`/uploads/images/${encodeURIComponent(fileName)}`}
      alt=""
      loading="lazy"
      className={cn("object-cover", className)}
    />
  );
}
