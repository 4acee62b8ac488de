"""The league ledger for Blood Bowl leagues."""
