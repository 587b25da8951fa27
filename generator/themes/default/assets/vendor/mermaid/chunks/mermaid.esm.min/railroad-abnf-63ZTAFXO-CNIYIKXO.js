import{a as r,b as o}from"./chunk-EKDPPX6U.js";import"./chunk-MWUZ53VY.js";import"./chunk-V3YWWTDH.js";export{r as RailroadAbnfModule,o as createRailroadAbnfServices};
