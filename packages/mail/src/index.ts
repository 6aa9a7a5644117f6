export * from "./catalogue";
export * from "./render";
