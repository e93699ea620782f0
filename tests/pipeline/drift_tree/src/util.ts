export const danger: string = "rgb(179, 38, 30)";
class Cache { #add = 1; }
