#!/bin/sh
# Starts $CONNECT_FOUR_CHROMIUM (else /usr/bin/chromium) with the arguments given,
# every --disable-features merged into one: chromium obeys only the last, and Playwright
# passes its own list before the tests' (tests/browser/chromium.py).
disabled=""
for argument do
    shift
    case $argument in
        --disable-features=*) disabled="${disabled:+$disabled,}${argument#--disable-features=}" ;;
        *) set -- "$@" "$argument" ;;
    esac
done
exec "${CONNECT_FOUR_CHROMIUM:-/usr/bin/chromium}" ${disabled:+"--disable-features=$disabled"} "$@"
