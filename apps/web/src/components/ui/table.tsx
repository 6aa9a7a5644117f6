import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

export function Table({ className, ...props }: ComponentProps<"table">) {
  return (
    <div className="w-full overflow-x-auto">
      <table className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}
export const TableHeader = (props: ComponentProps<"thead">) => (
  <thead className="border-b bg-slate-50" {...props} />
);
export const TableBody = (props: ComponentProps<"tbody">) => <tbody className="divide-y" {...props} />;
export const TableRow = ({ className, ...props }: ComponentProps<"tr">) => (
  <tr className={cn("hover:bg-slate-50", className)} {...props} />
);
export const TableHead = ({ className, ...props }: ComponentProps<"th">) => (
  <th className={cn("px-3 py-2 text-left font-semibold text-slate-800", className)} scope="col" {...props} />
);
export const TableCell = ({ className, ...props }: ComponentProps<"td">) => (
  <td className={cn("px-3 py-2 align-top", className)} {...props} />
);
