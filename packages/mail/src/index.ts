export * from "./catalogue";
export * from "./render";
export * from "./sanitize";
export * from "./template-rules";
