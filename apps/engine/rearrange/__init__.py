"""The Rearrange game `tile-rummy-rearrange` (SPEC 4): sets, the play check, and (soon) the game itself."""
